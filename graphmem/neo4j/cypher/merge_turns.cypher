UNWIND $rows AS row
MERGE (t:Turn {key: row.key})
SET t.id = row.id,
    t.conversation = row.conversation,
    t.session = row.session,
    t.position = row.position,
    t.speaker = row.speaker,
    t.text = row.text,
    t.date = row.date,
    t.caption = row.caption
