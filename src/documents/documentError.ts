/** An uploaded document the service refuses: the caller's error, its message naming the field. */
export class DocumentError extends Error {}
