/** A wall-clock reading in one timezone. */
export interface LocalTime {
  /** YYYY-MM-DD */
  date: string;
  hour: number;
  minute: number;
  /** Minutes since local midnight. */
  minuteOfDay: number;
  /** "HH:MM" */
  label: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    // en-CA with h23 gives 2026-03-08, 00..23 hours: stable to parse.
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True for an IANA zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  if (!tz) return false;
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/**
 * The local wall time of `instant` in `timeZone`, by the IANA rules (so a DST
 * change day has 23 or 25 hours, and each instant reads as the clocks show it).
 * @throws RangeError for an unknown zone.
 */
export function localTime(instant: Date, timeZone: string): LocalTime {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(instant)) parts[p.type] = p.value;
  const hour = Number(parts.hour);
  const minute = Number(parts.minute);
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    hour,
    minute,
    minuteOfDay: hour * 60 + minute,
    label: `${parts.hour}:${parts.minute}`,
  };
}

/** The start of the UTC hour holding `instant`. */
export function floorHour(instant: Date): Date {
  const ms = instant.getTime();
  return new Date(ms - (((ms % 3_600_000) + 3_600_000) % 3_600_000));
}
