import { useState } from 'react';
import { Section } from '../../components/Page.tsx';
import { OperationProgress } from '../../live/OperationProgress.tsx';
import { EnvironmentFrame } from '../sites/EnvironmentFrame.tsx';
import { CoreSummary } from './CoreSummary.tsx';
import { InstallForm } from './InstallForm.tsx';
import { PluginList } from './PluginList.tsx';
import { ThemeList } from './ThemeList.tsx';
import { SearchReplaceForm, WpCliForm } from './WpCliForms.tsx';

type StartedOperation = { id: string; title: string };

/** An environment's WordPress: core version, plugins and themes (activate, deactivate, delete), installing a zip, WP-CLI, search-replace. */
export default function WordPressPage() {
  return <EnvironmentFrame title="Plugins & themes">{() => <WordPress />}</EnvironmentFrame>;
}

function WordPress() {
  const [operation, setOperation] = useState<StartedOperation | null>(null);
  const started = (id: string, title: string) => setOperation({ id, title });
  return (
    <>
      {operation ? (
        <Section title="In progress">
          <OperationProgress key={operation.id} id={operation.id} title={operation.title} />
        </Section>
      ) : null}
      <CoreSummary onStarted={started} />
      <PluginList onStarted={started} />
      <ThemeList onStarted={started} />
      <Section title="Install a plugin or theme">
        <InstallForm onStarted={started} />
      </Section>
      <Section title="Run a WP-CLI command">
        <WpCliForm onStarted={started} />
      </Section>
      <Section title="Search and replace in the database">
        <SearchReplaceForm onStarted={started} />
      </Section>
    </>
  );
}
