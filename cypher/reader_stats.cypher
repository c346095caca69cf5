// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// What the reader weighs a question's and its evidence's words by, and how many turns are indexed:
// - n: the number of indexed turns (the Conversation nodes' counters);
// - vdfs: each stem's document frequency over the turns' own words, from its Term node;
// - rarest: the smallest such frequency any stem has (the weight of a stem never seen).
CALL () {
  MATCH (c:Conversation)
  RETURN sum(coalesce(c.indexed, 0)) AS n
}
CALL () {
  UNWIND $p.stems AS s
  OPTIONAL MATCH (x:Term {stem: s})
  RETURN collect([s, coalesce(x.vdf, 0)]) AS vdfs
}
CALL () {
  MATCH (x:Term) WHERE x.vdf > 0
  WITH x.vdf AS v ORDER BY v LIMIT 1
  RETURN collect(v)[0] AS rarest
}
RETURN n, vdfs, rarest
