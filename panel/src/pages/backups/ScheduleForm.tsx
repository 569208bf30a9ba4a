import { useState } from 'react';
import type { components } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { CheckboxField, SelectField, TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { useEnvironmentParams } from '../sites/EnvironmentFrame.tsx';
import { cronOf, shapeOf, weekdays, type Frequency } from './cron.ts';

export type BackupSchedule = components['schemas']['BackupSchedule'];

const frequencies: { value: Frequency; label: string }[] = [
  { value: 'daily', label: 'Every day' },
  { value: 'weekly', label: 'Every week' },
  { value: 'monthly', label: 'Every month' },
  { value: 'hourly', label: 'Every hour' },
  { value: 'custom', label: 'Custom (cron expression)' },
];

const browserTimeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** A new schedule, or a change to `schedule`: a frequency and a time, or a cron expression of your own. */
export function ScheduleForm({ schedule, onDone }: { schedule?: BackupSchedule; onDone?: () => void }) {
  const { siteId, env } = useEnvironmentParams();
  const initial = shapeOf(schedule?.cron ?? '30 2 * * *');
  const [frequency, setFrequency] = useState<Frequency>(initial.frequency);
  const form = useApiForm({
    submit: (values) => {
      const body = { cron: cronOf(values), timezone: values.timezone || 'UTC' };
      return schedule
        ? berth.backupSchedules.update({ id: siteId, env, schedule: schedule.id, body })
        : berth.backupSchedules.create({ id: siteId, env, body: { ...body, enabled: values.enabled === 'on' } });
    },
    invalidates: [['backup-schedules', siteId, env]],
    onSuccess: () => onDone?.(),
  });
  // the API names one field, `cron`: its message goes to whichever control built the expression
  const cronError = form.error('cron');
  return (
    <Form
      form={form}
      submitLabel={schedule ? 'Save schedule' : 'Add schedule'}
      secondary={
        onDone ? (
          <button type="button" className="button" onClick={onDone}>
            Cancel
          </button>
        ) : null
      }
    >
      <SelectField
        name="frequency"
        label="How often"
        value={frequency}
        onChange={(event) => setFrequency(event.target.value as Frequency)}
        options={frequencies}
      />
      {frequency === 'hourly' ? (
        <TextField name="minute" label="Minute past the hour" type="number" min={0} max={59} defaultValue={initial.minute} error={cronError} />
      ) : null}
      {frequency === 'weekly' ? (
        <SelectField
          name="weekday"
          label="Day of the week"
          defaultValue={initial.weekday}
          options={weekdays.map((day, index) => ({ value: String(index), label: day }))}
        />
      ) : null}
      {frequency === 'monthly' ? (
        <TextField name="day" label="Day of the month" type="number" min={1} max={28} defaultValue={initial.day} hint="1 to 28 runs every month." />
      ) : null}
      {frequency === 'daily' || frequency === 'weekly' || frequency === 'monthly' ? (
        <TextField name="time" label="Time" type="time" required defaultValue={initial.time} error={cronError} />
      ) : null}
      {frequency === 'custom' ? (
        <TextField
          name="cron"
          label="Cron expression"
          required
          defaultValue={initial.cron}
          spellCheck={false}
          hint="Five fields: minute hour day-of-month month day-of-week, e.g. 30 2 * * * (every day at 02:30). At most hourly."
          error={cronError}
        />
      ) : null}
      <TextField
        name="timezone"
        label="Time zone"
        defaultValue={schedule?.timezone ?? browserTimeZone}
        hint="An IANA name such as Europe/Berlin; daylight saving time is followed."
        error={form.error('timezone')}
      />
      {schedule ? null : <CheckboxField name="enabled" label="Enabled" defaultChecked />}
    </Form>
  );
}
