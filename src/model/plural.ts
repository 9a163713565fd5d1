/** A count with its noun: "1 object", "3 objects"; `many` for an irregular plural ("2 addresses"). */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
