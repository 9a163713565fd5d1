/** What something costs, as the API's types publish it. */
export interface Price {
  monthly: number;
  hourly: number;
}

/** A region whose price differs from the type's default (later releases' `region_prices`). */
export interface RegionPrice extends Price {
  id: string;
}

/** The parts of an instance type that price it (GET /vm/types). */
export interface PricedType {
  id: string;
  price: Price;
  region_prices?: RegionPrice[];
  addons?: { backups?: { price?: Price; region_prices?: RegionPrice[] } };
}

export const NO_COST: Price = { monthly: 0, hourly: 0 };

export const addPrices = (a: Price, b: Price): Price => ({ monthly: a.monthly + b.monthly, hourly: a.hourly + b.hourly });

/** The price in a region: the region's own where one is listed (later releases), else the default, which is all 4.83.1 publishes. */
const inRegion = (price: Price, regional: readonly RegionPrice[] | undefined, region: unknown): Price =>
  (typeof region === 'string' && regional?.find((p) => p.id === region)) || price;

/** The price of a type in a region. */
export const typePrice = (type: PricedType, region: unknown): Price => inRegion(type.price, type.region_prices, region);

/** The backups add-on of a type in a region, when the type publishes one. */
export const backupsPrice = (type: PricedType, region: unknown): Price | undefined => {
  const backups = type.addons?.backups;
  return backups?.price && inRegion(backups.price, backups.region_prices, region);
};

/** Money as the confirmations and the costs view write it: cents for a month; for an hour three decimals, four where the price has them ($0.0075). */
export const monthlyText = (n: number) => `$${n.toFixed(2)}`;
export const hourlyText = (n: number) => `$${n.toFixed(4).replace(/(\.\d{3})0$/, '$1')}`;

/** "adds $24.00/month, $0.036/hour" */
export const addsText = (p: Price) => `adds ${monthlyText(p.monthly)}/month, ${hourlyText(p.hourly)}/hour`;
