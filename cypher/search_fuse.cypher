// The fusion (after search_bm25f.cypher), the database's form of graphmem.search.dense.fuse:
// beside each candidate's BM25F `score`, its dense score: the turn's best sentence's cosine,
// (own + w x replied-to's) / (1 + w) when it replies to a turn (graphmem.index.live_dense.with_context).
// Neo4j's cosine is (1 + cos) / 2, an affine map min-max undoes. Each side is min-max normalised
// over the candidates (the lexical floor is 0, as over all turns, where nearly every turn scores
// 0; the dense side over the candidates with sentences stored, a turn without any, written by a
// memory without dense=True, scoring 0 there) and summed, `$dense_weight` on the dense side.
WITH t, named, score AS lex,
     COLLECT { MATCH (s:Sentence {turn: t.key}) RETURN vector.similarity.cosine(s.embedding, $q.vector) } AS mine,
     COLLECT { MATCH (s:Sentence {turn: t.replied}) RETURN vector.similarity.cosine(s.embedding, $q.vector) } AS theirs
WITH t, named, lex, size(mine) > 0 AS embedded, reduce(m = 0.0, x IN mine | CASE WHEN x > m THEN x ELSE m END) AS own,
     CASE WHEN t.replied IS NULL THEN null ELSE reduce(m = 0.0, x IN theirs | CASE WHEN x > m THEN x ELSE m END) END AS replied
WITH named, collect({t: t, lex: lex, embedded: embedded,
                     dense: CASE WHEN replied IS NULL OR NOT $q.dense_context THEN own ELSE (own + $q.w * replied) / (1 + $q.w) END}) AS cands
WITH named, cands, [c IN cands WHERE c.embedded | c.dense] AS cosines,
     reduce(m = 0.0, c IN cands | CASE WHEN c.lex > m THEN c.lex ELSE m END) AS lmax
WITH named, cands, lmax, reduce(m = 0.0, x IN cosines | CASE WHEN x > m THEN x ELSE m END) AS dmax,
     reduce(m = 1.0, x IN cosines | CASE WHEN x < m THEN x ELSE m END) AS dmin
UNWIND cands AS c
WITH c.t AS t, named,
     (1.0 - $q.dense_weight) * CASE WHEN lmax > 0 THEN c.lex / lmax ELSE 0.0 END
     + $q.dense_weight * CASE WHEN c.embedded AND dmax > dmin THEN (c.dense - dmin) / (dmax - dmin) ELSE 0.0 END AS score
