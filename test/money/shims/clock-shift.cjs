// Shifts this process's clock (Date.now and new Date()) by PAYCTL_TEST_CLOCK_SHIFT_MS:
// a machine whose clock is off from the API's. Loaded with NODE_OPTIONS=--require.
const shift = Number(process.env.PAYCTL_TEST_CLOCK_SHIFT_MS || 0);
const RealDate = Date;
class ShiftedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + shift);
    else super(...args);
  }
  static now() {
    return RealDate.now() + shift;
  }
}
globalThis.Date = ShiftedDate;
