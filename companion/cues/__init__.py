"""Sound cues: short tunes that tell the table what it would otherwise miss.

``catalogue`` names every cue and its tune (the same in every game), ``derive`` finds them
in what a running race already reports (its public view before and after a move), and
``player`` plays them (the buzzer, the sound card) and writes each to ``cues.jsonl``, on a
worker of its own so that a cue never delays a press or a frame. ``settings`` keeps mute
and volume across boots; ``wav`` makes the sound card's WAV files. docs/sound.md.
"""
