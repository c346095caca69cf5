// Before a conversation is deleted (graphmem load --replace, or a test's clean-up): one batch
// of its indexed turns gives back the document frequencies the memory's search counted them
// in, and a term no turn holds any more goes (as forgetting does: nothing is left behind);
// run until it returns 0 turns.
MATCH (t:Turn {conversation: $conversation})
WHERE t.bag IS NOT NULL
WITH t LIMIT $batch
WITH collect(t) AS turns
CALL (turns) {
  UNWIND turns AS t
  UNWIND [x IN t.bag | [x, 1, 0]] + [x IN coalesce(t.own, []) | [x, 0, 1]] AS m
  WITH t.owner AS owner, m[0] AS stem, sum(m[1]) AS df, sum(m[2]) AS vdf
  ORDER BY owner, stem
  MATCH (x:Term {owner: owner, stem: stem})
  SET x.df = x.df - df, x.vdf = x.vdf - vdf
  WITH x WHERE x.df = 0 AND x.vdf = 0
  DELETE x
}
FOREACH (t IN turns | REMOVE t.bag, t.own)
RETURN size(turns) AS turns
