"""Tables: creating, joining and leaving them (``service``), each table's room that applies its
actions one at a time (``room``), bots and turn timers (``autoplay``), the live channel
(``live``, ``feed``, ``presence``), quick chat, the bus between instances and the bot worker
pool; the HTTP routes of tables (``routes``)."""
