/**
 * The sample file a new account can try a batch with (GET /batches/sample.csv): five contacts in the columns an
 * export has, each showing a verdict the result explains. The addresses are in the embedded reference data (RRAD),
 * two of them misspelled; the e-mail domains are reserved or misspelled, so no real mailbox is ever asked; the phone
 * numbers are the fictional 555-01xx ones and Ofcom's drama range.
 */
export const SAMPLE_CSV_NAME = 'sample-contacts.csv';

export const SAMPLE_CSV = [
  'name,email,phone,street,city,state,zip',
  'Ann Lee,ann.lee@gmial.com,(502) 713-4410,6007 Applegate Ln,Louisville,KY,40219',
  'Bo Chen,bo.chen@example.com,+1 615 555 0142,803 18th Ave S,Nashville,TN,37203',
  'Cy Diaz,cy.diaz@example.org,415-555-0199,7237 Wild Curant Way,Oakland,CA,94611',
  'Di Evans,,+44 20 7946 0000,1745 T St SE,Washington,DC,20020',
  'Ed Fox,ed.fox@example.net,,13 Riverview Avenu,Groton,CT,06340',
  '',
].join('\r\n');
