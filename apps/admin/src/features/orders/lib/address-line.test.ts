import { addressee, addressLine } from './address-line';

describe("a printed copy's address", () => {
  it('reads as a courier reads it, the optional parts only when given, the state by name', () => {
    const address = { name: 'Meera Nair', phone: '+91 94470 12345', line1: 'Flat 4B', city: 'Kochi', zip: '682016', country: 'India' };
    expect(addressLine(address)).toBe('Flat 4B, Kochi, 682016, India');
    expect(addressLine({ ...address, line2: 'Marine Drive', landmark: 'Opposite the jetty', state: '32' })).toBe(
      'Flat 4B, Marine Drive, Opposite the jetty, Kochi, Kerala, 682016, India',
    );
    expect(addressee(address)).toBe('Meera Nair, +91 94470 12345');
  });
});
