/** A command line the generator refuses, with the reason for the operator. */
export class UsageError extends Error {}
