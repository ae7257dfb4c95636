"""Fair play in the server (issue 48, docs/fairplay.md): finished matches scanned by the
detector in the background, the moderators' review queue and their decisions, and the ban from
rated play.  Other domains reach it only through its service (``service.FairPlay``)."""
