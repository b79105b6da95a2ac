"""The desktop's sound card: a cue as a WAV file handed to the system's player, or silence."""

import io
import os
import stat
import wave

from companion.cues.catalogue import CUES
from companion.cues.wav import RATE, wav_bytes
from companion.devices.soundcard import SoundCard, player_command


def test_a_cue_is_a_wav_of_its_length_and_volume():
    for cue in CUES.values():
        with wave.open(io.BytesIO(wav_bytes(cue.tune, 1.0))) as w:
            assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, RATE)
            assert abs(w.getnframes() - RATE * cue.ms // 1000) <= len(cue.tune)
    def peak(loudness):
        with wave.open(io.BytesIO(wav_bytes(CUES["flag"].tune, loudness))) as w:
            raw = w.readframes(w.getnframes())
        return max(abs(int.from_bytes(raw[i:i + 2], "little", signed=True)) for i in range(0, len(raw), 2))
    assert peak(1.0) > 20_000 and 2_000 < peak(0.15) < 6_000 and peak(0.0) == 0


def test_the_player_is_found_only_with_a_sound_card(tmp_path):
    cards = tmp_path / "cards"
    cards.write_text(" 0 [PCH            ]: HDA-Intel - HDA Intel PCH\n")
    which = {"aplay": "/usr/bin/aplay"}.get
    assert player_command(which, cards) == ["/usr/bin/aplay", "-q"]
    cards.write_text("--- no soundcards ---\n")
    assert player_command(which, cards) is None
    assert player_command(which, tmp_path / "missing") is None
    assert player_command({}.get, cards) is None                               # no player: silent
    assert player_command({"afplay": "/usr/bin/afplay"}.get, cards) == ["/usr/bin/afplay"]


def test_the_sound_card_plays_the_cue_file(tmp_path):
    log = tmp_path / "played"
    player = tmp_path / "player"
    player.write_text(f"#!/bin/sh\ncp \"$1\" {log}\n")
    player.chmod(player.stat().st_mode | stat.S_IEXEC)
    card = SoundCard([str(player)], folder=tmp_path / "wav")
    (tmp_path / "wav").mkdir()
    card.play(CUES["last-lap"], 0.45)
    assert log.read_bytes() == wav_bytes(CUES["last-lap"].tune, 0.45)
    card.close()
    own = SoundCard(["true"])
    own.play(CUES["line"], 1.0)
    folder = own.folder
    assert folder.is_dir()
    own.close()
    assert not os.path.exists(folder)
