"""The subtraction game: rules (:mod:`.rules`); drawn as heaps by the Nim picture."""
