import events from '../../../src/screens/events/index.js';
import images from '../../../src/screens/images/index.js';
import instances from '../../../src/screens/instances/index.js';
import nodebalancers from '../../../src/screens/nodebalancers/index.js';
import type { RunningService } from '../../../src/server/service.js';
import type { AppOptions } from '../../helpers/ink.js';
import { appWith } from '../objects/harness.js';

export { gone, jump, press, select, wait } from '../objects/harness.js';

/** Images, scripts and tags, with the screens a tagged object opens (instances, load balancers, the goto route). */
export const app = (svc: RunningService, opts: AppOptions = {}) => appWith([...images, ...instances, ...nodebalancers, ...events], svc, opts);
