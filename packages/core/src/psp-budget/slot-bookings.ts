/** A PSP slot kept for one payment whose first request found the budget spent: its place in the queue. */
export interface SlotBooking {
  paymentId: string;
  /** When the booked request may go to the PSP (real time, ms). */
  atMs: number;
  /** The endpoint's spacing between slots when it was booked. */
  spacingMs: number;
}

/** Where bookings are kept: beside the claims, so that the retry with the same key finds its place. */
export interface SlotBookings {
  /** The booking of a payment, read strongly consistent, or undefined. */
  find(paymentId: string): Promise<SlotBooking | undefined>;
  /** Keeps a booking until a little after its slot; a later booking of the same payment replaces it. */
  book(booking: SlotBooking): Promise<void>;
  /** Takes the booking for use, once: false when it was taken already or replaced. */
  take(booking: SlotBooking): Promise<boolean>;
}
