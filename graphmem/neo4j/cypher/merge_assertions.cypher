UNWIND $rows AS row
MERGE (a:Assertion {key: row.key})
SET a.n = row.n,
    a.conversation = row.conversation,
    a.subject = row.subject,
    a.predicate = row.predicate,
    a.object = row.object,
    a.negated = row.negated,
    a.topic = row.topic,
    a.sentence = row.sentence,
    a.dia_id = row.dia_id,
    a.date = row.date,
    a.derived = row.derived
