// It takes no values (`$p` is empty).
// A database written before each user's search statistics were their own (issue #47): one Term per
// stem counted every user's turns, and a Conversation may lack its owner. Run by the schema step when
// it had to make the schema: when no Term lacks an owner, it reads the index and changes nothing;
// otherwise every owner-less Term goes and each user's Terms are counted again from their turns'
// fields (`bag`, `own`), as index_turns.cypher would have counted them.
OPTIONAL MATCH (old:Term) WHERE old.owner IS NULL
WITH count(old) AS old
CALL (old) {
  WITH old WHERE old > 0
  MATCH (c:Conversation) WHERE c.owner IS NULL
  SET c.owner = '~none'
}
CALL (old) {
  WITH old WHERE old > 0
  MATCH (x:Term) WHERE x.owner IS NULL
  DELETE x
}
CALL (old) {
  WITH old WHERE old > 0
  MATCH (t:Turn) WHERE t.bag IS NOT NULL
  UNWIND [x IN t.bag | [x, 1, 0]] + [x IN coalesce(t.own, []) | [x, 0, 1]] AS m
  WITH coalesce(t.owner, '~none') AS owner, m[0] AS stem, sum(m[1]) AS df, sum(m[2]) AS vdf
  ORDER BY owner, stem
  MERGE (x:Term {owner: owner, stem: stem})
  SET x.df = df, x.vdf = vdf
}
RETURN old
