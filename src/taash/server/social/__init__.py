"""Social: friends, blocks and challenges (``friends``); what a finished match leaves a player,
their public profile, history, ratings and the leaderboards (``profiles``)."""
