"""Who may decide, and the proof of what was decided: the judges' and players' registered keys and
the store that demands their signatures (``judges``), and the audit over a whole store: signed
checkpoints of its Merkle tree, inclusion and consistency proofs, re-adjudication (``audit``)."""
