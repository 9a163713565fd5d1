import { defineScreen, type ScreenDef } from '../../app/screen.js';
import { apps, devices, logins } from './access.js';
import { GrantsScreen } from './GrantsScreen.js';
import { PreferencesScreen } from './PreferencesScreen.js';
import { ProfileScreen } from './ProfileScreen.js';
import { sshKeys } from './ssh-keys.js';
import { tokens } from './tokens.js';
import { TwoFactorScreen } from './TwoFactorScreen.js';

/**
 * The acting user and its security: the profile screen (on the home view)
 * drills into the rest, which `:` also reaches by name.
 */

const profile = defineScreen({
  id: 'profile',
  title: 'Profile',
  aliases: ['me'],
  description: 'You: profile, SSH keys, tokens, apps, devices, logins, grants, two-factor',
  component: ProfileScreen,
});

const grants = defineScreen({ id: 'grants', title: 'Grants', home: false, description: 'What a restricted user may do', component: GrantsScreen });

const preferences = defineScreen({
  id: 'preferences',
  title: 'Preferences',
  aliases: ['prefs'],
  home: false,
  description: 'Settings this client keeps, as JSON',
  component: PreferencesScreen,
});

const twoFactor = defineScreen({
  id: '2fa',
  title: 'Two-factor',
  aliases: ['tfa', 'two-factor'],
  home: false,
  description: 'Two-factor authentication: status, enable, disable',
  component: TwoFactorScreen,
});

const screens: ScreenDef[] = [profile, sshKeys, tokens, apps, devices, logins, grants, preferences, twoFactor];

export default screens;
