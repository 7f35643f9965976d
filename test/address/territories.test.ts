/**
 * The US territories' own address forms (issue 41): Puerto Rico's as USPS Publication 28 (section 29) writes them, the
 * Virgin Islands' estates and plots, and the villages of Guam, the Northern Marianas and American Samoa.
 */
import { describe, expect, it } from 'vitest';
import { AddressFootnotes as F } from '../../src/validation/address/footnotes.js';
import type { NorthAmericanComponents } from '../../src/validation/address/north-america/index.js';
import { check } from './shipped-engine.js';

describe('address engine: Puerto Rico, written its own way', () => {
  it.each([
    // The number after the street in the local form; Pub 28 writes it first.
    ['Calle Luna 123, San Juan, PR 00901', '123 CALLE LUNA SAN JUAN PR 00901'],
    ['Ave Ponce de Leon 1250, San Juan, PR 00907', '1250 AVE PONCE DE LEON SAN JUAN PR 00907'],
    ['Avenida Ponce de Leon 1250, San Juan, PR 00907', '1250 AVE PONCE DE LEON SAN JUAN PR 00907'],
    ['1250 Avenida Ponce de Leon, San Juan, PR 00907', '1250 AVE PONCE DE LEON SAN JUAN PR 00907'],
    ['Calle 1 23, Bayamon, PR 00961', '23 CALLE 1 BAYAMON PR 00961'],
    ['Calle San Francisco 250 Apt 3, San Juan, PR 00901', '250 CALLE SAN FRANCISCO APT 3 SAN JUAN PR 00901'],
    ['Paseo de Diego 35, San Juan, PR 00925', '35 PASEO DE DIEGO SAN JUAN PR 00925'],
    ['Camino Los Romeros 10, San Juan PR 00926', '10 CAMINO LOS ROMEROS SAN JUAN PR 00926'],
    ['Maria Rodriguez, Calle Luna 123, San Juan PR 00901', '123 CALLE LUNA SAN JUAN PR 00901'],
    // A kilometre on a carretera stands as the number; CARRETERA is written CARR.
    ['Carretera 2 Km 15.1, Bayamon, PR 00961', 'CARR 2 KM 15.1 BAYAMON PR 00961'],
    // The urbanization above the line, the street under it in the local form.
    ['Urb Las Gladiolas, Calle A 150, San Juan, PR 00926', 'URB LAS GLADIOLAS 150 CALLE A SAN JUAN PR 00926'],
    ['Urb Villa Nevarez, Calle 13 1234, San Juan, PR 00927', 'URB VILLA NEVAREZ 1234 CALLE 13 SAN JUAN PR 00927'],
    // A barrio, sector or parcela above the line is filed as an urbanization is.
    ['Bo Camarones, Carr 169 Km 2.3, Guaynabo, PR 00970', 'URB BO CAMARONES CARR 169 KM 2.3 GUAYNABO PR 00970'],
    ['Sector La Pra, Carr 2 Km 3.4, Bayamon PR 00956', 'URB SECT LA PRA CARR 2 KM 3.4 BAYAMON PR 00956'],
    ['Parcelas Falu, 123 Calle 5, San Juan PR 00924', 'URB PARC FALU 123 CALLE 5 SAN JUAN PR 00924'],
    // Pub 28: an alphanumeric house number is written without its hyphen.
    ['A-17 Calle Amapola, Urb Las Gladiolas, San Juan, PR 00926', 'URB LAS GLADIOLAS A17 CALLE AMAPOLA SAN JUAN PR 00926'],
    ['B-40 Calle 1, Bayamon, PR 00961', 'B40 CALLE 1 BAYAMON PR 00961'],
    // Pub 28: a block and a house number are hyphenated, without BLOQUE, NUM, CASA, LOTE or #.
    ['Calle 19 Blq 199 Casa 31, Bayamon, PR 00961', '199-31 CALLE 19 BAYAMON PR 00961'],
    ['Calle 117 Bloque 23 Num. 18, Bayamon, PR 00961', '23-18 CALLE 117 BAYAMON PR 00961'],
    // A residencial, as a condominio, stands for the street without a house number.
    ['Residencial Las Margaritas Apt 45, San Juan, PR 00915', 'RES LAS MARGARITAS APT 45 SAN JUAN PR 00915'],
  ])('When "%s" is written in a Puerto Rico form, then it is plausible and written as Pub 28 writes it', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.country, r.components.state, r.standardized]).toEqual(['plausible', 'US', 'PR', standardized]);
  });

  it('When the street is written in the local form, then its parts are kept: number, street, urbanization', () => {
    const r = check('Urb Las Gladiolas, Calle A 150, San Juan, PR 00926');
    const c = r.components as NorthAmericanComponents;
    expect([c.primary_number, c.street_name, c.urbanization, c.delivery_type]).toEqual(['150', 'CALLE A', 'LAS GLADIOLAS', 'street']);
  });

  it('When the country hint is PR and the number follows the street, then it is read as in Puerto Rico', () => {
    expect(check('Calle Luna 123, San Juan, PR 00901', 'PR').standardized).toBe('123 CALLE LUNA SAN JUAN PR 00901');
  });

  it('When the ZIP is another state\'s, then the Puerto Rico form is still checked against it as a US address is', () => {
    const r = check('Calle Luna 123, San Juan, PR 40219');
    expect([r.status, r.components.street_name]).toEqual(['invalid', 'CALLE LUNA']);
  });

  it('When a mainland address has a block word or a lettered number with a hyphen, then the Puerto Rico forms are not applied', () => {
    expect(check('Calle 19 Blq 199 Casa 31, Louisville, KY 40219').standardized).not.toMatch(/^199-31 /);
    expect(check('A-17 Main St, Louisville, KY 40219').components.street_name).not.toBe('MAIN ST');
  });

  it('When a mainland street is named AVENUE with a number after it, then it stays the numbered road', () => {
    expect(check('100 Avenue 416, Dinuba, CA 93618').standardized).toBe('100 AVENUE 416 DINUBA CA 93618');
  });
});

describe('address engine: the Virgin Islands, Guam, the Northern Marianas and American Samoa', () => {
  it.each([
    ['Estate Thomas 12, St Thomas, VI 00802', '12 ESTATE THOMAS ST THOMAS VI 00802'],
    ['12 Estate Bovoni, St Thomas, VI 00802', '12 ESTATE BOVONI ST THOMAS VI 00802'],
    ['Plot 45 Estate Grove Place, Frederiksted, VI 00840', '45 ESTATE GROVE PL FREDERIKSTED VI 00840'],
    ['123 Chalan Santo Papa, Hagatna, GU 96910', '123 CHALAN SANTO PAPA HAGATNA GU 96910'],
    ['182 Tun Jose Camacho St, Tamuning, GU 96913', '182 TUN JOSE CAMACHO ST TAMUNING GU 96913'],
  ])('When "%s" has a house number, then it is plausible and written as Pub 28 writes it', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['plausible', standardized]);
  });

  it.each([
    ['Estate Bovoni, St Thomas, VI 00802', 'ESTATE BOVONI', 'VI'],
    ['Chalan Kanoa, Saipan, MP 96950', 'CHALAN KANOA', 'MP'],
    ['Tafuna, Pago Pago, AS 96799', 'TAFUNA', 'AS'],
  ])('When "%s" is a village or estate without a house number, then the line is kept, plausible and said unchecked', (input, line, state) => {
    const r = check(input);
    expect([r.status, r.components.street_name, r.components.state]).toEqual(['plausible', line, state]);
    expect(r.footnotes).toContain(F.villageLine(state, line));
  });

  it('When a mainland street has no house number, then it is still invalid', () => {
    expect(check('Main St, Louisville, KY 40219').footnotes).toContain(F.noPrimaryNumber);
  });
});
