/**
 * The one keymap: every key the app reacts to is bound here to a named
 * command. Handlers, the footer and the help overlay all read this table, so
 * a key shown is a key that works. Key names are those of `keyName()` in
 * keys.ts: a printable character ('j', 'G', ':'), or return, escape, tab,
 * shift+tab, space, up, down, left, right, pageup, pagedown, home, end,
 * backspace, ctrl+<letter>, ctrl+space, ctrl+\.
 */
export interface CommandSpec {
  keys: readonly string[];
  /** Short word for the footer. */
  label: string;
  /** Sentence for the help overlay. */
  help: string;
  /** Changes something: hidden and refused under --read-only. */
  mutation?: boolean;
  /** Listed in help but not in the footer (obvious or too frequent). */
  quiet?: boolean;
  /** How the footer and help write keys too many to list (the sort letters). */
  keysText?: string;
}

/**
 * Shift and a column's initial sorts by that column (k9s): every capital no
 * other command takes (C columns, G bottom, M messages, Y copy). A list gives each column
 * the first letter of its title still free, and help says which.
 */
const SORT_KEYS = [...'ABDEFHIJKLNOPQRSTUVWXZ'];

export const KEYMAP = {
  // Everywhere, below every view.
  quit: { keys: ['q', 'ctrl+c'], label: 'quit', help: 'Quit (Ctrl-C works even while typing)' },
  command: { keys: [':'], label: 'jump', help: 'Jump to an area by name or alias (Tab completes); :vm web filters' },
  help: { keys: ['?'], label: 'help', help: 'Show the keys of the current view' },
  back: { keys: ['escape'], label: 'back', help: 'Back one level; closes an overlay first' },
  // Tabs: gt and gT are g then t or T (the g's move is undone); see use-key-routing.ts.
  gotoTab: { keys: ['alt+1', 'alt+2', 'alt+3', 'alt+4', 'alt+5', 'alt+6', 'alt+7', 'alt+8', 'alt+9'], keysText: 'Alt-1…9', label: 'tab', help: 'Show tab 1 to 9 (:tab opens one, :tabs lists them)' },
  nextTab: { keys: ['gt'], label: 'next tab', help: 'Show the next tab (g then t)', quiet: true },
  prevTab: { keys: ['gT'], label: 'prev tab', help: 'Show the previous tab (g then T)', quiet: true },
  triage: { keys: ['!'], label: 'triage', help: 'Managed issues: open the triage view (offered while a service is in problem)' },

  // Moving in lists and scrollable views.
  up: { keys: ['up', 'k'], label: 'up', help: 'Move up', quiet: true },
  down: { keys: ['down', 'j'], label: 'down', help: 'Move down', quiet: true },
  pageUp: { keys: ['pageup', 'ctrl+b'], label: 'page up', help: 'Page up', quiet: true },
  pageDown: { keys: ['pagedown', 'ctrl+f'], label: 'page down', help: 'Page down', quiet: true },
  top: { keys: ['g', 'home'], label: 'top', help: 'Go to the first line', quiet: true },
  bottom: { keys: ['G', 'end'], label: 'bottom', help: 'Go to the last line', quiet: true },

  // Resource lists: changes come first, so the footer keeps them in view on narrow terminals.
  open: { keys: ['return'], label: 'open', help: 'Open the selected item: drill in, or show its detail' },
  create: { keys: ['c'], label: 'create', help: 'Create a new item', mutation: true },
  edit: { keys: ['e'], label: 'edit', help: 'Edit the selected item', mutation: true },
  delete: { keys: ['ctrl+d'], label: 'delete', help: 'Delete the selected item', mutation: true },
  // Not a mutation itself: under --read-only the menu keeps the actions that change nothing (an instance's disks, configs, backups).
  actions: { keys: ['a'], label: 'actions', help: 'Actions on the selected item' },
  detail: { keys: ['d'], label: 'detail', help: 'Show the full record' },
  json: { keys: ['y'], label: 'json', help: 'Show the raw JSON of the record' },
  filter: { keys: ['/'], label: 'filter', help: 'Filter the list (live, any visible column); Esc clears' },
  sortBy: { keys: SORT_KEYS, keysText: '⇧A-Z', label: 'sort', help: "Sort by a column: Shift and the column's letter below; again reverses" },
  refresh: { keys: ['r'], label: 'refresh', help: 'Fetch the view again now' },
  history: { keys: ['h'], label: 'history', help: "The item's events and field changes, newest first" },
  copy: { keys: ['Y'], label: 'copy', help: 'Copy: ID, label, address, ssh line, JSON or curl of the item, a secret (OSC 52)' },
  switchView: { keys: ['v'], label: 'view', help: 'Show the list another way: costs by type, by region, by tag' },
  columns: { keys: ['C'], label: 'columns', help: 'Choose, order and resize the columns (every field of the rows); saved per view' },
  xray: { keys: ['x'], label: 'xray', help: 'The xray of the item: what it touches, both ways, as a tree' },
  more: { keys: ['m'], label: 'more', help: 'Load the next page of a list paged by marker (bucket objects); reaching the end does too' },

  // The xray's tree.
  expand: { keys: ['right', 'l'], label: 'expand', help: 'Open the branch: what the line touches (from the cached lists)' },
  collapse: { keys: ['left'], label: 'collapse', help: 'Close the branch; on a closed one, go to the line above it' },

  // Choosing columns (C).
  toggleColumn: { keys: ['space'], label: 'show/hide', help: 'Show or hide the column' },
  columnEarlier: { keys: ['<'], label: 'move left', help: 'Move the column one place to the left' },
  columnLater: { keys: ['>'], label: 'move right', help: 'Move the column one place to the right' },
  narrower: { keys: ['-'], label: 'narrower', help: 'Make the column narrower' },
  wider: { keys: ['+'], label: 'wider', help: 'Make the column wider' },

  // Typing a filter.
  applyFilter: { keys: ['return'], label: 'keep', help: 'Keep the filter and return to the list' },
  clearFilter: { keys: ['escape'], label: 'clear', help: 'Clear the filter' },

  // Forms.
  nextField: { keys: ['tab', 'down'], label: 'next', help: 'Next field' },
  prevField: { keys: ['shift+tab', 'up'], label: 'prev', help: 'Previous field' },
  choicePrev: { keys: ['left'], label: 'change', help: 'Previous choice, or toggle a switch', quiet: true },
  choiceNext: { keys: ['right', 'space'], label: 'change', help: 'Next choice, or toggle a switch' },
  pick: { keys: ['return'], label: 'pick/submit', help: 'Pick from a list (choices), next field, or submit on the submit row' },
  submit: { keys: ['ctrl+s'], label: 'submit', help: 'Submit the form' },
  reveal: { keys: ['ctrl+r'], label: 'reveal', help: 'Show or hide secret fields' },
  cancel: { keys: ['escape'], label: 'cancel', help: 'Cancel (asks before discarding edits)' },

  // Menus and dialogs.
  select: { keys: ['return'], label: 'select', help: 'Choose the highlighted entry' },
  close: { keys: ['escape'], label: 'close', help: 'Close' },
  // Arrows are directions, never a toggle: held or pressed twice, ← still ends on Cancel.
  towardCancel: { keys: ['left'], label: 'to Cancel', help: 'Move the focus toward Cancel; stops there' },
  towardConfirm: { keys: ['right'], label: 'to action', help: 'Move the focus toward the confirming button; stops there' },
  cycleButtons: { keys: ['tab', 'shift+tab'], label: 'next button', help: 'Cycle the focus between the buttons' },
  press: { keys: ['return'], label: 'press', help: 'Press the highlighted button (Cancel unless you moved)' },
  acknowledge: { keys: ['return'], label: 'done', help: 'I have copied it; close' },

  // The command line.
  complete: { keys: ['tab'], label: 'complete', help: 'Complete the name; again to cycle the candidates' },
  olderCommand: { keys: ['up'], label: 'history', help: 'The command before (history of this session)' },
  newerCommand: { keys: ['down'], label: 'history', help: 'The command after', quiet: true },
  go: { keys: ['return'], label: 'go', help: 'Jump to the area' },

  // Messages and calls: what the app said and did, kept to be read again.
  messages: { keys: ['M'], label: 'messages', help: 'The last 50 messages, newest first, whole: read again an error that has gone' },
  // Marks, bulk actions and export in lists. With marks, Ctrl-D and the actions menu (a) act on every marked item.
  mark: { keys: ['space'], label: 'mark', help: 'Mark or unmark the selected item; with marks, ^D and a act on all of them' },
  markRange: { keys: ['ctrl+space'], label: 'mark range', help: 'Mark every item from the last one marked to the cursor', quiet: true },
  clearMarks: { keys: ['ctrl+\\'], label: 'unmark all', help: 'Clear every mark (and the outcomes of the last bulk action)', quiet: true },
  // ctrl+s submits a form; in a list it exports.
  exportList: { keys: ['ctrl+s'], label: 'export', help: 'Save the list as shown (only the marked items, if any) as CSV and JSON' },
  stopBulk: { keys: ['escape', 'ctrl+c'], label: 'stop', help: 'Stop the bulk action: start no more (what was sent is reported)' },
  // :tabs.
  closeTab: { keys: ['ctrl+w'], label: 'close tab', help: 'Close the tab: its screens go with it' },
  // Instances.
  ssh: { keys: ['s'], label: 'ssh', help: 'SSH into the instance (its public IPv4); back here when ssh ends' },
} as const satisfies Record<string, CommandSpec>;

export type CommandId = keyof typeof KEYMAP;

/** The commands a key name triggers, in table order. */
export function commandsForKey(name: string): CommandId[] {
  return (Object.keys(KEYMAP) as CommandId[]).filter((id) => (KEYMAP[id].keys as readonly string[]).includes(name));
}

/**
 * A command the config file adds (a plugin): not in the table, but checked
 * against it when read (its key may be no built-in key), and shown in the
 * footer and help like the table's own, by the layer that binds it.
 */
export interface ExtensionCommand extends CommandSpec {
  id: `plugin:${string}`;
  run(): void;
}
