const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Identifiers are UUIDs (contract); anything else is answered without a database round trip. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
