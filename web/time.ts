/** A time a person acts on, with its year and zone: "Nov 29, 2026, 11:11 PM CST". */
export const whenWithZone = (iso: string): string =>
  new Date(iso).toLocaleString([], {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  });
