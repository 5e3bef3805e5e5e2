/** ioredis's flat `[member, score, …]` reply of a sorted set read WITHSCORES, as ids with their scores. */
export function scoredIds(flat: readonly string[]): { id: string; score: number }[] {
  const result: { id: string; score: number }[] = [];
  for (let i = 0; ; i += 2) {
    const id = flat[i];
    const score = flat[i + 1];
    if (id === undefined || score === undefined) return result;
    result.push({ id, score: Number(score) });
  }
}
