// What a search needs besides its candidates, in one round trip: how many turns are indexed and
// their total length (BM25's N and average length), each query stem's document frequencies, and
// the conversations of every speaker the query names (the person scope).
CALL () {
  MATCH (c:Conversation)
  RETURN sum(coalesce(c.indexed, 0)) AS n, sum(coalesce(c.length, 0.0)) AS total
}
CALL () {
  UNWIND $stems AS s
  OPTIONAL MATCH (x:Term {stem: s})
  RETURN collect([s, coalesce(x.df, 0), coalesce(x.vdf, 0)]) AS dfs
}
CALL () {
  MATCH (c:Conversation)
  WHERE any(w IN coalesce(c.lspeakers, []) WHERE w IN $words)
  RETURN collect(c.id) AS named
}
CALL () {
  MATCH (x:Term) WHERE x.vdf > 0
  RETURN x.vdf AS rarest ORDER BY x.vdf LIMIT 1
}
RETURN n, total, dfs, named, rarest
