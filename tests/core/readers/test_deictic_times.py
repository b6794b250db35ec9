""""Stolen out of my car yesterday": a day named from the asker's own is when it happened,
which no document states, so it is no specific word the blocks lack (halvard's "my work
laptop got stolen out of my car yesterday evening, what do I have to do?" was refused over
"A lost or stolen laptop must be reported to the IT Service Desk within 24 hours")."""

from __future__ import annotations

from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block


async def test_yesterday_is_no_word_the_answer_lacks() -> None:
    # the blocks halvard's knowledge base gives the question
    blocks = (
        make_block(1, "Standard laptops are replaced every 4 years. A lost or stolen laptop "
                      "must be reported to the IT Service Desk within 24 hours; IT then wipes "
                      "it remotely.", title="IT Accounts, Passwords and VPN",
                   section="Laptops and devices", doc_id="it"),
        make_block(2, "Before any filter change or service, the BSC is decontaminated with "
                      "vaporised hydrogen peroxide by the external service company. Daily, "
                      "users wipe the work surface with 70 % ethanol before and after work.",
                   title="Maintenance Procedure: Centrifuges and Biosafety Cabinets",
                   section="4. Biosafety cabinet decontamination", doc_id="maint"),
        make_block(3, "**I forgot my password. What do I do?**\nUse the self-service reset or "
                      "call the IT Service Desk, ext. 4400, from 7:00 to 18:00.\n\n**Can I use "
                      "my private laptop for work?**\nNo. Only company-managed devices may "
                      "connect to the company network or the VPN.",
                   title="Halvard Biotech Employee FAQ (Munich)", section="IT", doc_id="faq"),
    )
    answer = await extractive_answer(
        "My work laptop got stolen out of my car yesterday evening, what do I have to do?",
        blocks)
    assert "within 24 hours" in answer
