import type { ApiClient } from '../api/client.js';
import { PROBE_FIRST_MS, PROBE_MAX_MS } from '../api/client.js';
import type { DataStore } from './data.js';
import type { LivePoller } from './live.js';
import type { SessionStore } from './session.js';

/**
 * What the app does as its server goes and comes back (the client's link):
 * down, it says so once and the views keep their rows (nothing is sent but
 * the client's one probe); back, one round of reads of what is on screen and
 * the events; the token refused, it says so once, offers `:ctx` and stops
 * polling. Returns the way to stop following.
 */
export function followLink({ client, data, session, live }: { client: ApiClient; data: DataStore; session: SessionStore; live: LivePoller }): () => void {
  return client.onLink((link) => {
    const notify = session.getState().notify;
    if (link.state === 'up') {
      session.setState({ link: undefined });
      notify('The server answers again: reading what is on screen', 'success');
      data.getState().refreshWatched();
      void live.poke();
      return;
    }
    session.setState({ link });
    if (link.state === 'refused') {
      live.stop();
      notify(link.error.message, 'error');
    } else {
      notify(`Server unreachable: ${link.error.message}. The views keep what they show; one request asks again every ${PROBE_FIRST_MS / 1000}–${PROBE_MAX_MS / 1000} s`, 'error');
    }
  });
}
