/**
 * A key to type by hand, cut into groups of four ("JBSW Y3DP EHPK 3PXP"), the way authenticator
 * apps and password managers show one: a person keeps their place while typing it. The last
 * group holds what is left. Spaces and dashes someone pasted in are dropped first.
 */
export function keyGroups(key: string, size = 4): string[] {
  const plain = key.replace(/[\s-]+/g, "");
  const groups: string[] = [];
  for (let at = 0; at < plain.length; at += size) groups.push(plain.slice(at, at + size));
  return groups;
}
