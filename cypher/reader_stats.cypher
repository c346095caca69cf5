// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// What the reader weighs a question's and its evidence's words by, among one user's turns (`$p.owner`):
// - n: the number of the user's indexed turns (their Conversation nodes' counters);
// - vdfs: each stem's document frequency over the user's turns' own words, from the user's Term node;
// - rarest: the smallest such frequency any of the user's stems has (the weight of a stem never seen).
CALL () {
  MATCH (c:Conversation) WHERE c.owner = $p.owner
  RETURN sum(coalesce(c.indexed, 0)) AS n
}
CALL () {
  UNWIND $p.stems AS s
  OPTIONAL MATCH (x:Term {owner: $p.owner, stem: s})
  RETURN collect([s, coalesce(x.vdf, 0)]) AS vdfs
}
CALL () {
  MATCH (x:Term) WHERE x.owner = $p.owner AND x.vdf > 0
  WITH x.vdf AS v ORDER BY v LIMIT 1
  RETURN collect(v)[0] AS rarest
}
RETURN n, vdfs, rarest
