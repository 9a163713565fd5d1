import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useStore } from 'zustand';
import { TextInput } from '../components/TextInput.js';
import { editText } from '../components/text-edit.js';
import { candidates, complete } from './completion.js';
import { useApp } from './context.js';
import { PRIORITY } from './key-router.js';
import { useCommands } from './use-commands.js';
import { SEARCH_SCREEN } from '../screens/search/ids.js';

/** The area's name, and what follows it: `:vm web` opens the instances filtered by "web"; a config alias stands for its words. */
const parse = (text: string, aliases: ReadonlyMap<string, string> = new Map()) => {
  const [first = '', ...rest] = text.trim().split(/\s+/);
  const alias = aliases.get(first.toLowerCase());
  const [name = '', ...words] = alias ? [...alias.split(/\s+/), ...rest] : [first, ...rest];
  return { name, filter: words.join(' ') };
};

/** `:` — jump to an area by name or alias, its list filtered by any words after it. Two lines: the candidates, then the input. */
export function CommandLine({ width }: { width: number }) {
  const { ui, screens, nav, session, views, settings, tabs, accounts } = useApp();
  const command = useStore(ui, (s) => s.command)!;
  // :tab is no area but a command of the line: Tab completes it as it does the areas.
  const names = [...screens.names(), ...(tabs ? ['tab'] : []), ...settings.aliases.keys()];
  const closeLine = () => ui.setState({ command: null });
  const now = () => ui.getState().command!;
  /** Steps through the history: 1 back, -1 forward; forward past the newest gives an empty line. */
  const recall = (step: number) => {
    const { history } = ui.getState();
    const back = Math.min(history.length, Math.max(0, (now().recalled ?? 0) + step));
    const text = back === 0 ? '' : history[history.length - back]!;
    ui.setState({ command: { text, cursor: text.length, base: null, cycle: -1, recalled: back } });
  };
  useCommands(
    {
      complete: () => {
        const c = now();
        // Only the name completes; once a filter follows it, Tab leaves the line alone.
        if (/\s/.test(c.text.trim())) return;
        const next = complete(names, c);
        ui.setState({ command: { ...next, cursor: next.text.length } });
      },
      go: () => {
        const typed = now().text.trim();
        const [first = '', ...rest] = typed.split(/\s+/);
        // :tab opens a tab (on another account: :tab ctx NAME); the tab shown keeps its stack.
        if (first === 'tab' && tabs) {
          ui.getState().remember(typed);
          ui.setState({ command: null, help: false });
          if (rest[0] !== 'ctx') return tabs.getState().open();
          if (!rest[1] || !accounts) return session.getState().notify(accounts ? 'Which account? :tab ctx NAME (:ctx lists them)' : 'No other account: the app runs on one', 'error');
          void accounts.getState().connect(rest[1]).then((other) => other && tabs.getState().open(other));
          return;
        }
        let { name, filter } = parse(typed, settings.aliases);
        if (!name) return closeLine();
        // An exact name wins; otherwise the best completion (ids come before aliases); a name of nothing is searched for.
        let def = screens.find(name);
        const best = def ? undefined : candidates(names, first)[0];
        if (best) {
          ({ name, filter } = parse([best, ...rest].join(' '), settings.aliases));
          def = screens.find(name);
        }
        if (!def) {
          def = screens.find(SEARCH_SCREEN);
          filter = typed;
        }
        if (!def) {
          session.getState().notify(`No area "${name}"; Tab completes the names`, 'error');
          return;
        }
        ui.getState().remember(now().text.trim());
        ui.setState({ command: null, help: false });
        // A view about the app itself (its tabs) is pushed: the tab keeps its stack under it.
        if (def.push) nav.getState().push(def.id);
        else nav.getState().jump(def.id);
        if (!filter) return;
        if (def.list || def.filterable) views.getState().update(nav.getState().stack.at(-1)!.key, { filter, filterCursor: filter.length });
        else session.getState().notify(`${def.title} has no list to filter; opened without "${filter}"`, 'error');
      },
      olderCommand: () => recall(1),
      newerCommand: () => recall(-1),
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
  const typed = command.base ?? command.text;
  const list = candidates(names, typed.trim().split(/\s+/)[0] ?? '');
  const searchable = typed.trim() !== '' && screens.find(SEARCH_SCREEN) !== undefined;
  const chosen = command.base !== null ? command.cycle : -1;
  return (
    <Box flexDirection="column" height={2}>
      <Text wrap="truncate-end">
        {list.length === 0 ? (
          searchable ? (
            <Text dimColor>{`no area of that name: Enter searches every area for "${typed.trim()}"`}</Text>
          ) : (
            <Text color="red">no matching area</Text>
          )
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
