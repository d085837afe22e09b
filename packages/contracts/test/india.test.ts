import { INDIAN_STATES, indianStateName, pinCodeStates } from '../src';

describe('PIN codes', () => {
  it("names a PIN code's state by its first three digits", () => {
    expect(pinCodeStates('695001')).toEqual(['32']); // Thiruvananthapuram, Kerala
    expect(pinCodeStates('682001')[0]).toBe('32'); // Kochi, Kerala (its district also serves Lakshadweep)
    expect(pinCodeStates('560034')).toEqual(['29']); // Bengaluru, Karnataka
    expect(pinCodeStates('110001')).toEqual(['07']); // New Delhi
    expect(pinCodeStates('403001')).toEqual(['30']); // Panaji, Goa, inside Maharashtra's circle
    expect(pinCodeStates('737101')).toEqual(['11']); // Gangtok, Sikkim, inside West Bengal's
    expect(pinCodeStates('834001')).toEqual(['20']); // Ranchi, Jharkhand
    expect(pinCodeStates('800001')).toEqual(['10']); // Patna, Bihar
    expect(pinCodeStates('248001')).toEqual(['05']); // Dehradun, Uttarakhand
  });

  it('lists each state of a sorting district that straddles a border, the likelier first', () => {
    expect(pinCodeStates('160017')).toEqual(['04', '03']); // Chandigarh, and Mohali in Punjab
    expect(pinCodeStates('605001')).toEqual(['34', '33']); // Puducherry, and Tamil Nadu around it
    expect(pinCodeStates('396210')).toEqual(['24', '26']); // Valsad, and Daman
    // Found by the storefront's PIN directory (India Post's every PIN code):
    expect(pinCodeStates('362520')).toEqual(['24', '26']); // Junagadh, and Diu
    expect(pinCodeStates('507130')).toEqual(['36', '37']); // Bhadradri, and the villages that went to Andhra Pradesh
    expect(pinCodeStates('607402')).toEqual(['33', '34']); // Cuddalore, and Puducherry's
    expect(pinCodeStates('814131')).toEqual(['20', '10']); // Deoghar's series, and Banka in Bihar
  });

  it('knows nothing of a malformed code or an unused series', () => {
    for (const pin of ['', '68200', '6820011', '012345', 'abcdef', '68 001']) expect(pinCodeStates(pin)).toEqual([]);
    expect(pinCodeStates('999999')).toEqual([]); // Army Post Office
    expect(pinCodeStates('290000')).toEqual([]);
  });

  it("names only today's states and union territories", () => {
    const codes = new Set(INDIAN_STATES.map((state) => state.code));
    for (let prefix = 100; prefix <= 999; prefix += 1) for (const state of pinCodeStates(`${prefix}000`)) expect(codes.has(state)).toBe(true);
    expect(indianStateName('32')).toBe('Kerala');
    expect(indianStateName('99')).toBeUndefined();
  });
});
