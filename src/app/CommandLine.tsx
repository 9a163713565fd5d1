import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { TextInput } from '../components/TextInput.js';
import { editText } from '../components/text-edit.js';
import { candidates, complete } from './completion.js';
import { useApp } from './context.js';
import { PRIORITY } from './key-router.js';
import { useCommands } from './use-commands.js';

/** `:` — jump to an area by name or alias. Two lines: the candidates, then the input. */
export function CommandLine({ width }: { width: number }) {
  const { ui, screens, nav, session } = useApp();
  const command = useStore(ui, (s) => s.command)!;
  const names = screens.names();
  const closeLine = () => ui.setState({ command: null });
  const now = () => ui.getState().command!;
  useCommands(
    {
      complete: () => {
        const c = now();
        const next = complete(names, c);
        ui.setState({ command: { ...next, cursor: next.text.length } });
      },
      go: () => {
        const text = now().text.trim();
        if (!text) return closeLine();
        // An exact name wins; otherwise the best completion (ids come before aliases).
        const best = candidates(names, text)[0];
        const def = screens.find(text) ?? (best ? screens.find(best) : undefined);
        if (!def) {
          session.getState().notify(`No area "${text}"; Tab completes the names`, 'error');
          return;
        }
        ui.setState({ command: null, help: false });
        nav.getState().jump(def.id);
      },
      close: closeLine,
    },
    {
      priority: PRIORITY.app,
      title: 'Command line',
      modal: 'full',
      capture: (ev) => {
        const c = now();
        const next = editText({ text: c.text, cursor: c.cursor }, ev);
        if (!next) return false;
        ui.setState({ command: { text: next.text, cursor: next.cursor, base: null, cycle: -1 } });
        return true;
      },
    },
  );
  const list = candidates(names, command.base ?? command.text);
  const chosen = command.base !== null ? command.cycle : -1;
  return (
    <Box flexDirection="column" height={2}>
      <Text wrap="truncate-end">
        {list.length === 0 ? (
          <Text color="red">no matching area</Text>
        ) : (
          list.map((n, i) => (
            <Text key={n} inverse={i === chosen} dimColor={i !== chosen}>
              {`${n}  `}
            </Text>
          ))
        )}
      </Text>
      <Box>
        <Text color="cyan">:</Text>
        <TextInput value={{ text: command.text, cursor: command.cursor }} width={width - 2} focused />
      </Box>
    </Box>
  );
}
