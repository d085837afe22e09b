// A coupon's settings as the admin page sends them; each test changes what it needs.
export const couponBody = (over: Record<string, unknown> = {}) => ({
  code: 'launch-20',
  percentOff: 20,
  amountOffPaise: null,
  minOrderPaise: 0,
  validFrom: null,
  validTo: null,
  bookIds: [],
  totalLimit: 100,
  perEmailLimit: 1,
  active: true,
  ...over,
});
