"""The demo app's fixed content: shop products, credit offers, the credit file, help articles and alert templates."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Product:
    """An item of the rewards shop; prices are in cents to keep totals exact."""

    id: str
    name: str
    price_cents: int
    category: str
    blurb: str
    rating: float

    def as_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "price": self.price_cents / 100,
            "priceCents": self.price_cents,
            "category": self.category,
            "blurb": self.blurb,
            "rating": self.rating,
        }


PRODUCTS: tuple[Product, ...] = (
    Product("iphone-15-pro", "iPhone 15 Pro", 99_900, "phone", "Titanium design, A17 Pro chip, 128 GB.", 4.8),
    Product("galaxy-s24-ultra", "Galaxy S24 Ultra", 129_999, "phone", "200 MP camera with built-in S Pen.", 4.7),
    Product("pixel-8-pro", "Pixel 8 Pro", 99_900, "phone", "Google Tensor G3 and a pro-level camera.", 4.6),
    Product("macbook-air-13", "MacBook Air 13\"", 109_900, "laptop", "M3 chip, 8-core GPU, 18-hour battery.", 4.8),
    Product("ipad-air", "iPad Air", 59_900, "tablet", "11-inch Liquid Retina display, M2 chip.", 4.7),
    Product("airpods-pro-2", "AirPods Pro (2nd gen)", 24_900, "audio", "Active noise cancellation, USB-C case.", 4.7),
    Product("sony-wh-1000xm5", "Sony WH-1000XM5", 39_999, "audio", "Industry-leading noise cancelling headphones.", 4.6),
    Product("apple-watch-s9", "Apple Watch Series 9", 39_900, "watch", "Brighter display and double-tap gesture.", 4.7),
    Product("kindle-paperwhite", "Kindle Paperwhite", 14_999, "ereader", "6.8-inch glare-free display, weeks of battery.", 4.8),
    Product("bose-soundlink-flex", "Bose SoundLink Flex", 14_900, "speaker", "Rugged, waterproof Bluetooth speaker.", 4.6),
    Product("switch-oled", "Nintendo Switch OLED", 34_999, "console", "7-inch OLED screen and enhanced audio.", 4.8),
    Product("mx-master-3s", "Logitech MX Master 3S", 9_999, "accessory", "Quiet clicks, 8K DPI tracking on glass.", 4.7),
)
PRODUCTS_BY_ID = {product.id: product for product in PRODUCTS}


@dataclass(frozen=True)
class Offer:
    """A credit product recommended to the signed-in member."""

    id: str
    name: str
    kind: str
    headline: str
    apr: str
    annual_fee: str
    approval_odds: str
    perks: tuple[str, ...]


OFFERS: tuple[Offer, ...] = (
    Offer("aurora-cash-rewards", "Aurora Cash Rewards Card", "Credit card", "Unlimited 2% cash back on every purchase.",
          "19.24% – 29.24% variable", "$0", "Excellent", ("2% cash back", "No foreign transaction fees", "Cell phone protection")),
    Offer("summit-travel-elite", "Summit Travel Elite", "Credit card", "75,000 bonus miles after $4,000 spend in 3 months.",
          "21.49% – 28.49% variable", "$95", "Good", ("3x miles on travel", "Airport lounge passes", "Trip delay insurance")),
    Offer("harbor-balance-transfer", "Harbor Balance Transfer Card", "Credit card", "0% intro APR for 21 months on transfers.",
          "0% intro, then 18.24% – 28.99%", "$0", "Good", ("21-month intro APR", "No late fee on first miss", "Free FICO score")),
    Offer("keystone-personal-loan", "Keystone Personal Loan", "Personal loan", "Consolidate debt with fixed monthly payments.",
          "8.99% – 24.99% fixed", "No origination fee", "Very good", ("Loans from $5,000 to $50,000", "Funds in 1 business day", "No prepayment penalty")),
    Offer("evergreen-auto-refi", "Evergreen Auto Refinance", "Auto loan", "Members save an average of $89 per month.",
          "5.74% – 17.99% fixed", "$0", "Good", ("Terms from 24 to 84 months", "Rate check without a hard pull", "Skip your first payment")),
    Offer("meridian-high-yield", "Meridian High-Yield Savings", "Savings", "Earn 4.35% APY with no minimum balance.",
          "4.35% APY", "$0", "Excellent", ("No monthly fees", "FDIC insured up to $250,000", "Daily compounding")),
)
OFFERS_BY_ID = {offer.id: offer for offer in OFFERS}


@dataclass(frozen=True)
class Tradeline:
    """One account on the member's credit file."""

    id: str
    creditor: str
    kind: str
    balance_cents: int
    limit_cents: int
    status: str
    opened: str


TRADELINES: tuple[Tradeline, ...] = (
    Tradeline("acct-4821", "Aurora Bank Visa ••4821", "Revolving", 124_050, 800_000, "Current", "Mar 2017"),
    Tradeline("acct-1190", "Northwind Auto Finance ••1190", "Installment", 1_432_000, 2_400_000, "Current", "Aug 2021"),
    Tradeline("acct-7734", "Harbor Mortgage ••7734", "Mortgage", 28_650_000, 32_000_000, "Current", "Jun 2019"),
    Tradeline("acct-3307", "Cityline Store Card ••3307", "Revolving", 0, 150_000, "Closed", "Jan 2014"),
    Tradeline("acct-5562", "Summit Student Loans ••5562", "Installment", 812_500, 2_200_000, "30 days late (2023)", "Sep 2012"),
)

INQUIRIES: tuple[tuple[str, str, str], ...] = (
    ("Northwind Auto Finance", "Auto loan application", "Aug 14, 2024"),
    ("Aurora Bank", "Credit limit increase", "Feb 2, 2024"),
    ("Greenleaf Apartments", "Rental application", "Oct 21, 2023"),
)

# Twelve monthly scores ending at today's score, oldest first.
SCORE_HISTORY: tuple[int, ...] = (701, 704, 709, 712, 716, 714, 721, 726, 731, 735, 739, 742)
CURRENT_SCORE = SCORE_HISTORY[-1]


def score_band(score: int) -> str:
    """The FICO-style band a score falls in."""
    if score >= 800:
        return "Exceptional"
    if score >= 740:
        return "Very good" if score >= 760 else "Good"
    if score >= 670:
        return "Fair"
    return "Poor"


DISPUTE_REASONS: tuple[tuple[str, str], ...] = (
    ("not-mine", "This account is not mine"),
    ("incorrect-balance", "The balance is incorrect"),
    ("paid-off", "The account was paid off"),
    ("late-payment", "A late payment is reported in error"),
)
DISPUTE_REASON_LABELS = dict(DISPUTE_REASONS)


@dataclass(frozen=True)
class AlertTemplate:
    """An alert every member starts with; its date is set relative to the server clock when first shown."""

    category: str  # "security" or "credit"
    title: str
    body: str
    age_minutes: int
    read: bool


ALERT_TEMPLATES: tuple[AlertTemplate, ...] = (
    AlertTemplate("security", "New sign-in from Chrome on Linux",
                  "We noticed a new sign-in to your account. If this was you, no action is needed.", 12, False),
    AlertTemplate("credit", "Your credit score went up 3 points",
                  "Your score is now 742. Paying down revolving balances helped.", 180, False),
    AlertTemplate("credit", "New hard inquiry reported",
                  "Northwind Auto Finance requested your credit report for an auto loan application.", 60 * 26, False),
    AlertTemplate("security", "Password changed",
                  "The password on your account was changed. Contact us if you did not make this change.", 60 * 24 * 3, True),
    AlertTemplate("credit", "Balance reported on Aurora Bank Visa",
                  "A balance of $1,240.50 was reported. Your utilization is now 16%.", 60 * 24 * 6, True),
    AlertTemplate("security", "Your email address was found in a data breach",
                  "Your email appeared in a breach at an online retailer. Change passwords you reused there.", 60 * 24 * 9, False),
)


@dataclass(frozen=True)
class HelpArticle:
    """A frequently asked question on the help page."""

    id: str
    question: str
    answer: str


HELP_ARTICLES: tuple[HelpArticle, ...] = (
    HelpArticle("score-update", "How often is my credit score updated?",
                "Your score refreshes every 30 days from your credit file. Premium members get daily updates."),
    HelpArticle("dispute-time", "How long does a dispute take?",
                "Most disputes are resolved within 30 days. We email you when the creditor responds."),
    HelpArticle("freeze", "How do I freeze my credit?",
                "Open Privacy & security in your profile and choose Freeze credit. A freeze is free and can be lifted at any time."),
    HelpArticle("hard-soft", "What is the difference between a hard and a soft inquiry?",
                "A hard inquiry happens when you apply for credit and can lower your score slightly. Checking your own score is a soft inquiry and never affects it."),
    HelpArticle("two-factor", "How do I set up two-factor authentication?",
                "Install an authenticator app, then scan the QR code shown in Profile. You will enter a 6-digit code at each sign-in."),
    HelpArticle("offers-score", "Will checking offers hurt my score?",
                "No. Approval odds use a soft inquiry. A hard inquiry only happens if you apply with a lender."),
    HelpArticle("cancel-plan", "How do I cancel my premium plan?",
                "Go to Profile, choose Plan, then Cancel plan. You keep premium features until the end of the billing period."),
    HelpArticle("identity-theft", "What should I do if I suspect identity theft?",
                "Freeze your credit, review your alerts, and file a dispute for any account you do not recognise."),
)
