// Each candidate `t` scored by the memory's BM25F (graphmem.index.postings' arithmetic,
// operation for operation): per group, tf = its stems' count in the turn's own field plus `$w`
// times their count in the reply field, idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avg));
// plus each date's idf for a turn said then or speaking of it; plus the answer type's idf for a
// turn that gives one; plus, for a first-person question, the asker's turns' idf for a matched
// turn of a person in a conversation an assistant speaks in (graphmem.index.askers).
WITH t, named, asker, groups, dates, typed, split(coalesce(t.terms, ''), ' ') AS own, split(coalesce(t.context, ''), ' ') AS ctx,
     $q.k1 * (1.0 - $q.b + $q.b * t.length / CASE WHEN avg > 0 THEN avg ELSE 1.0 END) AS norm
WITH t, named, asker, dates, typed, norm, groups, [g IN groups | reduce(tf = 0.0, s IN g.stems |
        tf + size([x IN own WHERE x = s]) * 1.0 + size([x IN ctx WHERE x = s]) * $q.w)] AS tfs
WITH t, named, asker, dates, typed, reduce(score = 0.0, i IN range(0, size(tfs) - 1) |
        score + CASE WHEN tfs[i] > 0 THEN groups[i].idf * tfs[i] * ($q.k1 + 1.0) / (tfs[i] + norm) ELSE 0.0 END) AS words
WITH t, named, asker, typed, reduce(score = words, d IN dates |
        score + CASE WHEN (t.day >= d.lo AND t.day <= d.hi)
                       OR any(j IN range(0, size(coalesce(t.span_lo, [])) - 1) WHERE t.span_lo[j] <= d.hi AND d.lo <= t.span_hi[j])
                     THEN d.idf ELSE 0.0 END) AS dated
WITH t, named, asker, dated + CASE WHEN typed IS NOT NULL AND typed.type IN coalesce(t.types, []) THEN typed.idf ELSE 0.0 END AS score
WITH t, named, score + CASE WHEN score > 0 AND asker IS NOT NULL AND t.conversation IN asker.conversations
                              AND NOT toLower(trim(t.speaker)) IN $q.roles THEN asker.idf ELSE 0.0 END AS score
