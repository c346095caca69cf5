"""The one vocabulary: tokens, stems, weights."""

from nltk.stem.porter import PorterStemmer

from graphmem.text import terms


def test_stem_is_nltk_mode_porter_and_cached():
    nltk = PorterStemmer(mode=PorterStemmer.NLTK_EXTENSIONS)
    for word in ["running", "generously", "dying", "painting", "adoption", "agencies"]:
        assert terms.stem(word) == nltk.stem(word)
    terms.stem.cache_clear()
    terms.stem("painting")
    terms.stem("painting")
    assert terms.stem.cache_info().hits == 1


def test_analyse_drops_function_words_and_keeps_topic_words():
    assert terms.analyse("I went to the LGBTQ support group yesterday!") == ["went", "lgbtq", "support", "group", "yesterday"]
    assert terms.analyse("I don't eat dairy") == ["eat", "dairi"]
    # topic words that scikit-learn's long list would drop are kept
    assert "fire" in terms.analyse("We sat by the fire")
    assert terms.analyse("In 2022, I painted") == ["2022", "paint"]


def test_weights_rank_rare_terms_above_common_ones():
    vocab = terms.Vocabulary(["I love painting", "painting sunsets", "painting is fun", "my dog Oscar"])
    assert vocab.weight("oscar") > vocab.weight("paint")
    assert vocab.weight("never-seen") == vocab.unseen
    assert "never" not in vocab.weights(["never"])  # unknown terms carry no weight
    assert set(vocab.weights(["paint", "oscar", "paint"])) == {"paint", "oscar"}


def test_vectors_are_unit_length_in_one_space():
    vocab = terms.Vocabulary(["I love painting", "painting sunsets", "my dog Oscar"])
    m = vocab.vectors(["painting sunsets", "Oscar"])
    assert m.shape == (2, len(vocab))
    norms = (m.multiply(m)).sum(axis=1)
    assert abs(float(norms[0, 0]) - 1.0) < 1e-9
    assert abs(float(norms[1, 0]) - 1.0) < 1e-9
    empty = vocab.vectors(["the of and"])
    assert empty.nnz == 0


def test_words_are_the_patterns_runs_by_either_path():
    """An ASCII text is split by a byte table, any other by Unicode's rules: where the other
    characters are punctuation, symbols or emoji, the same runs either way."""
    import re

    runs = re.compile(r"[a-z0-9]+")
    texts = ["I don't eat dairy!", "e-mail: a_b@c.d, 2022/05/20", "tabs\tand\x1cseparators\x1fhere", "",
             "ALL CAPS 42", "\u2019quoted\u2019 \u2013 it\u2019s \u2014 fine \U0001f31f", "x\u2028y",
             "yoga \U0001f9d8\u200d\u2640\ufe0f done \U0001f44d", "\u212aelvin"]
    for text in texts:
        assert terms.words(text) == runs.findall(text.lower()), text
    assert terms.words("\u212a") == ["k"]
