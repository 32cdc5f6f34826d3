"""The subtraction game: rules (:mod:`.rules`), picture (:mod:`.picture`), entry (:mod:`.entry`)."""
