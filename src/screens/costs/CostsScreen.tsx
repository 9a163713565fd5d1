import type { ScreenProps } from '../../app/screen.js';
import { ListScreen } from '../../components/list/ListScreen.js';
import { costsList } from './costs-list.js';

/** `:costs`: the generic list of cost groups; not a list screen itself, so neither search nor the home view computes it. */
export function CostsScreen(props: ScreenProps) {
  return <ListScreen def={costsList} {...props} />;
}
