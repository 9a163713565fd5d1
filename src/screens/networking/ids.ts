/** Screen ids of the networking area, for drilling between its screens. */
export const FIREWALLS_SCREEN = 'firewalls';
export const FIREWALL_SCREEN = 'firewall';
export const RULES_SCREEN = 'firewall-rules';
export const DEVICES_SCREEN = 'firewall-devices';
export const IPS_SCREEN = 'ips';
export const IPV6_SCREEN = 'ipv6';
