"""The player's view: estimates over the hands a seat cannot see (analysis.md, "The player's
view"). Deals consistent with one seat's knowledge (:mod:`.deals`), catbox's own playing policy
on a light packed state (:mod:`.policy`), perfect-information Monte Carlo and playouts
(:mod:`.advise`), the round-start advisor (:mod:`.start`) and review from the player's view
(:mod:`.review`)."""
