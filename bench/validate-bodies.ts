/**
 * The request bodies of bench:validate and bench:stages: real US addresses (OpenAddresses, via EthanRBrown/rrad, public
 * domain; one line, or in parts), e-mails and phone numbers as users type them. A few are wrong on purpose (a typo'd
 * domain, a broken address, a number too short), as in real traffic.
 */
export const ADDRESSES: [line1: string, line2: string, city: string, state: string, zip: string][] = [
  ['702 Farragut Street Northwest', '', 'Washington', 'DC', '20011'],
  ['422 C Street Northeast', '', 'Washington', 'DC', '20002'],
  ['31 Ashworth Street', '', 'Manchester', 'CT', '06040'],
  ['3146 North Old Wire Road', '', 'Fayetteville', 'AR', '72703'],
  ['311 South Panama Street', '', 'Montgomery', 'AL', '36107'],
  ['1822 North Grand Avenue', '', 'Pueblo', 'CO', '81003'],
  ['16896 West 85th Lane', '', 'Arvada', 'CO', '80007'],
  ['2506 West Madison Street', '', 'Louisville', 'KY', '40211'],
  ['6611 5th Street Northwest', '', 'Washington', 'DC', '20012'],
  ['2906 Clare Avenue', '', 'Nashville', 'TN', '37209'],
  ['11150 Sun Valley Drive', '', 'Oakland', 'CA', '94605'],
  ['7113 North 69th Avenue', '', 'Glendale', 'AZ', '85303'],
  ['2894 Music Avenue', '', 'Grand Junction', 'CO', '81506'],
  ['11 Meeting Place Circle', '', 'Boxford', 'MA', '01921'],
  ['5912 North 48th Avenue', '', 'Glendale', 'AZ', '85301'],
  ['2835 Southwest 78th Street', '', 'Oklahoma City', 'OK', '73159'],
  ['1428 Flatwood Court', '', 'Crofton', 'MD', '21114'],
  ['37 East Broad Street', '', 'Savannah', 'GA', '31401'],
  ['424 North Powderhorn Drive', '', 'Fayetteville', 'AR', '72704'],
  ['1010 M Street Northwest', '', 'Washington', 'DC', '20001'],
  ['9009 West Nicolet Avenue', '', 'Glendale', 'AZ', '85305'],
  ['2 Spencer Street', '', 'Lexington', 'MA', '02420'],
  ['10508 Kovats Court', '', 'Louisville', 'KY', '40223'],
  ['4132 Carmichael Road', '', 'Montgomery', 'AL', '36106'],
  ['7002 Secrest Court', '', 'Arvada', 'CO', '80007'],
  ['722 Oak Grove Circle', '', 'Severna Park', 'MD', '21146'],
  ['3784 Milky Way Drive', '', 'Anchorage', 'AK', '99517'],
  ['10841 Sutter Circle', '', 'Sutter Creek', 'CA', '95685'],
  ['2057 Lucas Street', '', 'Montgomery', 'AL', '36107'],
  ['4350 Woodley Square', '', 'Montgomery', 'AL', '36116'],
  ['905 Richardson Vista Road', '#APT 165', 'Anchorage', 'AK', '99501'],
  ['7106 Bear Creek Drive', '#B3', 'Saint Matthews', 'KY', '40207'],
  ['6114 West Glenn Drive', '#1', 'Glendale', 'AZ', '85301'],
  ['6022 West Alice Avenue', '#3', 'Glendale', 'AZ', '85302'],
  ['5514 West Wedington Drive', '#3', 'Fayetteville', 'AR', '72704'],
  ['2100 North Leverett Avenue', '#112J', 'Fayetteville', 'AR', '72703'],
];

const EMAILS = [
  'jane.doe@gmail.com', 'm.garcia@yahoo.com', 'support@acme-widgets.com', 'j.smith+newsletter@outlook.com',
  'temp1234@mailinator.com', 'kevin.oneil@gmial.com', 'tom.baker@hotmail.co.uk', 'anna.kowalska@protonmail.com',
  'first.last@sub.example.org', 'sales@northwind.io', 'lwei88@icloud.com', 'info@smallbusiness.net',
  'Patrick.OConnor@Example.COM', 'dr.ruth.ellis@uky.edu', 'no-reply@notifications.shopify.com', 'bad-email@',
  'maria_lopez1987@aol.com', 'chris@localhost', 'd.nguyen@comcast.net', 'hr@cityofglendale.gov',
];

const PHONES = [
  '+12026301234', '(502) 713-4410', '479.423.7781', '1-719-731-0042', '+1 615 684 9023', '623-352-1187',
  '(405) 490-3356', '+1 (912) 563-8810', '209 935 6402', '+442079460958', '+49 30 901820', '+33 1 42 68 53 00',
  '555-1234', '+1 123 456 7890', '202-630-88', '+61 2 9374 4000',
];

export function validateBodies(count = 48): string[] {
  return Array.from({ length: count }, (_, i) => {
    const [line1, line2, city, state, zip] = ADDRESSES[i % ADDRESSES.length];
    const street = line2 ? `${line1} ${line2}` : line1;
    const address = i % 4 === 3
      ? { line1, ...(line2 ? { line2 } : {}), city, state, postal_code: zip }
      : `${street}, ${city}, ${state} ${zip}`;
    return JSON.stringify({
      address,
      email: EMAILS[i % EMAILS.length],
      phone: PHONES[i % PHONES.length],
      ...(i % 3 === 0 ? { country: 'US' } : {}),
    });
  });
}
