import type { ScreenDef } from '../../app/screen.js';
import { firewall } from './firewall.js';
import { firewallDevices } from './firewall-devices.js';
import { firewallRules } from './firewall-rules.js';
import { firewalls } from './firewalls.js';
import { ips } from './ips.js';
import { ipv6 } from './ipv6.js';

const screens: ScreenDef[] = [firewalls, firewall, firewallRules, firewallDevices, ips, ipv6];

export default screens;
