/** What something costs, as the API's types publish it. */
export interface Price {
  monthly: number;
  hourly: number;
}

/** The parts of an instance type that price it (GET /vm/types). */
export interface PricedType {
  id: string;
  price: Price;
  addons?: { backups?: { price?: Price } };
}

export const NO_COST: Price = { monthly: 0, hourly: 0 };

export const addPrices = (a: Price, b: Price): Price => ({ monthly: a.monthly + b.monthly, hourly: a.hourly + b.hourly });

/**
 * The price of a type in a region. 4.83.1 publishes one price per type;
 * the region is taken so a later server's per-region prices can be read here
 * without touching the callers.
 */
export const typePrice = (type: PricedType, _region: string): Price => type.price;

/** The backups add-on of a type in a region, when the type publishes one. */
export const backupsPrice = (type: PricedType, _region: string): Price | undefined => type.addons?.backups?.price;

/** Money as the confirmations and the costs view write it: cents for a month; for an hour three decimals, four where the price has them ($0.0075). */
export const monthlyText = (n: number) => `$${n.toFixed(2)}`;
export const hourlyText = (n: number) => `$${n.toFixed(4).replace(/(\.\d{3})0$/, '$1')}`;

/** "adds $24.00/month, $0.036/hour" */
export const addsText = (p: Price) => `adds ${monthlyText(p.monthly)}/month, ${hourlyText(p.hourly)}/hour`;
