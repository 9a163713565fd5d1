import { defineScreen } from '../../app/screen.js';
import { HomeScreen } from './HomeScreen.js';

export default [defineScreen({ id: 'home', title: 'Home', home: false, description: 'Every area with its count', component: HomeScreen })];
