import { useStdout } from 'ink';
import { useApp } from '../app/context.js';
import { copyToClipboard } from '../app/clipboard.js';

/** Copies text to the clipboard and says so in the message line: "Copied the label (OSC 52)". */
export function useCopy(): (text: string, what: string) => void {
  const { session } = useApp();
  const { stdout } = useStdout();
  return (text, what) => {
    void copyToClipboard(text, stdout).then((via) => session.getState().notify(`Copied ${what} (${via})`, 'success'));
  };
}
