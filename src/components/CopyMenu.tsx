import { useEffect, useState } from 'react';
import type { Instance } from '../api/instances.js';
import { useApp } from '../app/context.js';
import { PRIORITY } from '../app/key-router.js';
import { sshCommandLine, sshTarget } from '../app/ssh.js';
import { Menu } from './Menu.js';
import { copyItems, type CopySubject } from './copy-items.js';
import { useCopy } from './use-copy.js';

interface Props {
  title: string;
  subject: CopySubject;
  /** For an instance: the ssh command line is offered once its access settings are read. */
  instance?: Instance;
  onClose: () => void;
  width: number;
  height: number;
  priority?: number;
}

/** A line of the menu: what it copies, then as much of the text as fits (a JSON record by its size). */
const preview = (id: string, text: string) => (id === 'json' ? `${text.split('\n').length} lines` : text.replace(/\s+/g, ' '));

/** Y: a short menu of what to copy from a record; choosing copies it and closes. */
export function CopyMenu({ title, subject, instance, onClose, width, height, priority = PRIORITY.dialog }: Props) {
  const { client } = useApp();
  const copy = useCopy();
  const [ssh, setSsh] = useState<string | undefined>();
  useEffect(() => {
    if (!instance) return;
    let live = true;
    void sshTarget(client, instance).then((t) => live && t && setSsh(sshCommandLine(t)));
    return () => {
      live = false;
    };
  }, [client, instance]);
  const items = copyItems({ ...subject, ssh }, client);
  return (
    <Menu
      title={`Copy: ${title}`}
      items={items.map((it) => ({ id: it.id, key: it.key || undefined, label: `${it.label.padEnd(12)}${preview(it.id, it.text)}` }))}
      onSelect={(choice) => {
        const item = items.find((it) => it.id === choice.id)!;
        copy(item.text, item.what);
        onClose();
      }}
      onClose={onClose}
      width={width}
      height={height}
      priority={priority}
    />
  );
}
