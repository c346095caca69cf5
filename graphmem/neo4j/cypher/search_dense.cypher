// A fused search's second half (after search_parts.cypher), the database's form of
// graphmem.search.dense.fuse: candidates are Lucene's (as search_lexical.cypher proposes them)
// and the vector index's (the turns of the `$nearest` sentences nearest `$vector`, or, searching
// one conversation, of every sentence it holds; and the turns replying to those, which share in
// their score), each scored exactly on both sides:
// - lexical: the memory's BM25F, as search_lexical.cypher computes it;
// - dense: the turn's best sentence's cosine, (own + w x replied-to's) / (1 + w) when it replies
//   to a turn (graphmem.memory.index.with_context). Neo4j's cosine is (1 + cos) / 2, an affine
//   map min-max undoes.
// Each side is min-max normalised over the candidates (the lexical floor is 0, as over all turns,
// where nearly every turn scores 0; the dense side over the candidates with sentences stored, a
// turn without any, written by a memory without dense=True, scoring 0 there) and summed,
// `$dense_weight` on the dense side. The named
// conversations' turns come first, then the rest; ties in writing order; the k best return.
WHERE body <> '' OR $vector IS NOT NULL
CALL (body, named) {
  UNWIND CASE WHEN body = '' THEN [] WHEN $conversation IS NOT NULL THEN [[$conversation]]
              WHEN size(named) > 0 THEN [[], named] ELSE [[]] END AS scope
  WITH CASE WHEN size(scope) = 0 THEN body
            ELSE '+scope:(' + reduce(s = '', c IN scope | s + ' "' + replace(replace(c, '\\', '\\\\'), '"', '\\"') + '"')
                 + ') +(' + body + ')' END AS lucene
  CALL db.index.fulltext.queryNodes('turn_terms', lucene, {limit: $limit}) YIELD node
  RETURN collect(node) AS lexical
}
CALL () {
  CALL () {
    CALL db.index.vector.queryNodes('sentence_vectors', $nearest, $vector) YIELD node AS s
    WITH s WHERE $conversation IS NULL
    RETURN s
    UNION
    MATCH (s:Sentence {conversation: $conversation})
    RETURN s
  }
  MATCH (t:Turn {key: s.turn})
  OPTIONAL MATCH (r:Turn {replied: t.key})
  RETURN collect(t) + collect(r) AS near
}
UNWIND lexical + near AS t
WITH DISTINCT t, CASE WHEN total / n > 0 THEN total / n ELSE 1.0 END AS avg, named, groups, dates, typed
WITH t, named, groups, dates, typed, split(coalesce(t.terms, ''), ' ') AS own, split(coalesce(t.context, ''), ' ') AS ctx,
     $k1 * (1.0 - $b + $b * t.length / avg) AS norm
WITH t, named, dates, typed, norm, groups, [g IN groups | reduce(tf = 0.0, s IN g.stems |
        tf + size([x IN own WHERE x = s]) * 1.0 + size([x IN ctx WHERE x = s]) * $w)] AS tfs
WITH t, named, dates, typed, reduce(score = 0.0, i IN range(0, size(tfs) - 1) |
        score + CASE WHEN tfs[i] > 0 THEN groups[i].idf * tfs[i] * ($k1 + 1.0) / (tfs[i] + norm) ELSE 0.0 END) AS words
WITH t, named, typed, reduce(score = words, d IN dates |
        score + CASE WHEN (t.day >= d.lo AND t.day <= d.hi)
                       OR any(j IN range(0, size(coalesce(t.span_lo, [])) - 1) WHERE t.span_lo[j] <= d.hi AND d.lo <= t.span_hi[j])
                     THEN d.idf ELSE 0.0 END) AS dated
WITH t, named, dated + CASE WHEN typed IS NOT NULL AND typed.type IN coalesce(t.types, []) THEN typed.idf ELSE 0.0 END AS lex,
     COLLECT { MATCH (s:Sentence {turn: t.key}) RETURN vector.similarity.cosine(s.embedding, $vector) } AS mine,
     COLLECT { MATCH (s:Sentence {turn: t.replied}) RETURN vector.similarity.cosine(s.embedding, $vector) } AS theirs
WITH t, named, lex, size(mine) > 0 AS embedded, reduce(m = 0.0, x IN mine | CASE WHEN x > m THEN x ELSE m END) AS own,
     CASE WHEN t.replied IS NULL THEN null ELSE reduce(m = 0.0, x IN theirs | CASE WHEN x > m THEN x ELSE m END) END AS replied
WITH named, collect({t: t, lex: lex, embedded: embedded,
                     dense: CASE WHEN replied IS NULL OR NOT $dense_context THEN own ELSE (own + $w * replied) / (1 + $w) END}) AS cands
WITH named, cands, [c IN cands WHERE c.embedded | c.dense] AS cosines,
     reduce(m = 0.0, c IN cands | CASE WHEN c.lex > m THEN c.lex ELSE m END) AS lmax
WITH named, cands, lmax, reduce(m = 0.0, x IN cosines | CASE WHEN x > m THEN x ELSE m END) AS dmax,
     reduce(m = 1.0, x IN cosines | CASE WHEN x < m THEN x ELSE m END) AS dmin
UNWIND cands AS c
WITH c.t AS t, named,
     (1.0 - $dense_weight) * CASE WHEN lmax > 0 THEN c.lex / lmax ELSE 0.0 END
     + $dense_weight * CASE WHEN c.embedded AND dmax > dmin THEN (c.dense - dmin) / (dmax - dmin) ELSE 0.0 END AS score
WHERE score > 0
WITH t, score, t.conversation IN named AS inside
ORDER BY inside DESC, score DESC, t.conversation, t.position
LIMIT $k
RETURN t.key AS key, t.id AS id, t.speaker AS speaker, t.text AS text, t.date AS date, t.number AS number,
       t.conversation AS conversation, score
