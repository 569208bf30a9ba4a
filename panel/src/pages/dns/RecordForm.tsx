import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { fieldErrors } from '../../api/errors.ts';
import { SelectField, TextAreaField, TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { recordTypes, relativeName, valuesOf, type DnsRecordSet, type RecordType } from './records.ts';

/**
 * A record set: a new one, or new values and TTL for `record` (its name and type are its identity).
 * The API names a bad value `values.<i>`; the line number is given with its message.
 */
export function RecordForm({ zoneId, zoneName, record, onDone }: { zoneId: number; zoneName: string; record?: DnsRecordSet; onDone?: () => void }) {
  const [type, setType] = useState<RecordType>(record?.type ?? 'A');
  const form = useApiForm({
    submit: (values) => {
      const ttl = values.ttl ? { ttl: Number(values.ttl) } : {};
      const recordValues = valuesOf(values.values ?? '');
      return record
        ? berth.dnsRecords.replace({ zone: zoneId, name: record.name, type: record.type, body: { ...ttl, values: recordValues } })
        : berth.dnsRecords.create({ zone: zoneId, body: { name: (values.name ?? '').trim() || '@', type, ...ttl, values: recordValues } });
    },
    invalidates: [['dns-records', zoneId]],
    onSuccess: () => onDone?.(),
  });
  const errors = fieldErrors(form.mutation.error);
  const valueErrors = Object.entries(errors)
    .filter(([field]) => field === 'values' || field.startsWith('values.'))
    .map(([field, message]) => (field === 'values' ? message : `line ${Number(field.slice('values.'.length)) + 1}: ${message}`));
  const example = recordTypes.find((option) => option.value === type)?.example;
  return (
    <Form
      form={form}
      submitLabel={record ? 'Save record' : 'Add record'}
      secondary={
        onDone ? (
          <button type="button" className="button" onClick={onDone}>
            Cancel
          </button>
        ) : null
      }
    >
      {record ? (
        <p>
          <strong>{relativeName(record.name, zoneName)}</strong> {record.type}
        </p>
      ) : (
        <>
          <TextField
            name="name"
            label="Name"
            placeholder="www"
            spellCheck={false}
            autoComplete="off"
            hint={`Relative to ${zoneName}: @ for ${zoneName} itself, www for www.${zoneName}, *.dev for a wildcard.`}
            error={form.error('name')}
          />
          <SelectField
            name="type"
            label="Type"
            value={type}
            onChange={(event) => setType(event.target.value as RecordType)}
            options={recordTypes}
            error={form.error('type')}
          />
        </>
      )}
      <TextAreaField
        name="values"
        label="Content"
        rows={3}
        spellCheck={false}
        required
        defaultValue={record?.values.join('\n')}
        placeholder={example}
        hint={`One value a line, e.g. ${example}. Host names in full (no final dot).`}
        error={valueErrors.length ? valueErrors.join('; ') : undefined}
      />
      <TextField
        name="ttl"
        label="TTL (seconds)"
        type="number"
        min={60}
        max={86400}
        defaultValue={record?.ttl ?? 3600}
        hint="60 to 86400; 3600 is one hour."
        error={form.error('ttl')}
      />
    </Form>
  );
}
