/**
 * Backup schedules are cron expressions in the API. Most people want "every day at 02:30": the form
 * offers a frequency and a time, builds the expression, and reads the common ones back (anything
 * else stays a custom expression, shown as typed).
 */
export type Frequency = 'hourly' | 'daily' | 'weekly' | 'monthly' | 'custom';

export type ScheduleShape = { frequency: Frequency; minute: string; time: string; weekday: string; day: string; cron: string };

export const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

const number = /^\d{1,2}$/;

function splitTime(time: string): { hour: string; minute: string } {
  const [hour = '', minute = ''] = time.split(':');
  return { hour: String(Number(hour)), minute: String(Number(minute)) };
}

/** The expression for the form's values (`frequency`, `time`, `minute`, `weekday`, `day`, `cron`). */
export function cronOf(values: Record<string, string>): string {
  const { hour, minute } = splitTime(values.time || '02:30');
  switch (values.frequency as Frequency) {
    case 'hourly':
      return `${Number(values.minute || 0)} * * * *`;
    case 'daily':
      return `${minute} ${hour} * * *`;
    case 'weekly':
      return `${minute} ${hour} * * ${values.weekday || 0}`;
    case 'monthly':
      return `${minute} ${hour} ${values.day || 1} * *`;
    default:
      return (values.cron ?? '').trim();
  }
}

const pad = (value: string) => value.padStart(2, '0');

export function shapeOf(cron: string): ScheduleShape {
  const shape: ScheduleShape = { frequency: 'custom', minute: '0', time: '02:30', weekday: '1', day: '1', cron };
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return shape;
  const [minute, hour, day, month, weekday] = fields as [string, string, string, string, string];
  if (!number.test(minute) || month !== '*') return shape;
  if (hour === '*' && day === '*' && weekday === '*') return { ...shape, frequency: 'hourly', minute };
  if (!number.test(hour)) return shape;
  const time = `${pad(hour)}:${pad(minute)}`;
  if (day === '*' && weekday === '*') return { ...shape, frequency: 'daily', time };
  if (day === '*' && /^[0-6]$/.test(weekday)) return { ...shape, frequency: 'weekly', time, weekday };
  if (number.test(day) && weekday === '*') return { ...shape, frequency: 'monthly', time, day };
  return shape;
}

/** "Every day at 02:30", or the expression itself when it is not one of the common shapes. */
export function describeCron(cron: string): string {
  const shape = shapeOf(cron);
  switch (shape.frequency) {
    case 'hourly':
      return `Every hour at minute ${shape.minute}`;
    case 'daily':
      return `Every day at ${shape.time}`;
    case 'weekly':
      return `Every ${weekdays[Number(shape.weekday)]} at ${shape.time}`;
    case 'monthly':
      return `On day ${shape.day} of every month at ${shape.time}`;
    default:
      return cron;
  }
}
