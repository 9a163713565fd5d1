import { defineScreen } from '../../app/screen.js';
import { STATS_SCREEN } from './ids.js';
import { StatsScreen } from './StatsScreen.js';

export const stats = defineScreen({
  id: STATS_SCREEN,
  title: 'LB stats',
  aliases: ['lbstats', 'nbstats'],
  description: 'Load balancer connections and traffic over the last day',
  // Reached from the balancer list (action t) or by :lbstats; home lists the balancers themselves.
  home: false,
  component: StatsScreen,
});
