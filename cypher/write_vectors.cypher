// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// The embeddings of turns' sentences (the dense side), idempotent: a turn's sentences are
// keyed `<turn key>#s<n>`, and writing them again replaces their vectors. Turns whose reading
// changed keep their sentences: a sentence's words, and so its vector, never change.
UNWIND $p.rows AS row
MERGE (s:Sentence {key: row.key})
SET s.turn = row.turn, s.conversation = row.conversation, s.embedding = row.embedding
RETURN count(*) AS sentences
