import { useState } from 'react';
import type { Environment } from '@berth/sdk';
import type { StartedOperation } from '../../live/started-operation.ts';
import { berth } from '../../api/berth.ts';
import { TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Section } from '../../components/Page.tsx';
import { OperationProgress } from '../../live/OperationProgress.tsx';
import { EnvironmentFrame, useEnvironmentParams } from '../sites/EnvironmentFrame.tsx';
import { CertificateSection } from './CertificateSection.tsx';
import { DomainList } from './DomainList.tsx';

/** An environment's custom domains (with the DNS record that proves each) and its TLS certificate. */
export default function DomainsPage() {
  return <EnvironmentFrame title="Domains">{(environment) => <Domains environment={environment} />}</EnvironmentFrame>;
}

function Domains({ environment }: { environment: Environment }) {
  const { siteId, env } = useEnvironmentParams();
  const [operation, setOperation] = useState<StartedOperation | null>(null);
  const add = useApiForm({
    submit: (values) => berth.domains.create({ id: siteId, env, body: { name: (values.name ?? '').trim().toLowerCase() } }),
    invalidates: [['domains', siteId, env]],
    onSuccess: (answer) => {
      // a name inside a zone the team hosts on Berth is verified at once and goes to the edge (202)
      if ('operation' in answer) setOperation({ id: answer.operation.id, title: `Adding ${answer.domain.name}` });
    },
  });
  return (
    <>
      {operation ? (
        <Section title="In progress">
          <OperationProgress key={operation.id} id={operation.id} title={operation.title} />
        </Section>
      ) : null}
      <Section title="Add a domain">
        <Form form={add} submitLabel="Add domain" className="form form-inline">
          <TextField name="name" label="Domain name" placeholder="www.example.com" required spellCheck={false} autoComplete="off" error={add.error('name')} />
        </Form>
      </Section>
      <DomainList environment={environment} onOperation={setOperation} />
      <CertificateSection environment={environment} onOperation={setOperation} />
    </>
  );
}
