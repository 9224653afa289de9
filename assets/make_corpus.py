#!/usr/bin/env python3
"""make_corpus.py — write assets/corpus_zh.txt, the default word2vec training corpus.

Short everyday Chinese sentences, one per line, words separated by spaces (so the file trains
the same whatever segmenter is built in). The words come in kinds, and each kind has verbs and
frames of its own: feelings (爱 / 喜欢 / 讨厌 / 想念 ... with 心里, 从小 就, 最 ... 的 是, and
an object of any kind), moods (感到, 特别), animals (这 只 ... 长 得, 在 窝 里 睡觉), places
(坐 高铁 去, 一 座 ... 的 城市), people (一 位, 想 当, 在 医院 上班), food (超市 卖, 洗 干净,
挺 ... 的) and actions (去 操场, 每天 ... 一个 小时). Skip-gram learns a word from the words
around it, so words of one kind end near each other and words of different kinds apart: that
is what the learning view shows (tests/w2v_cli_test.py checks it on a --train run).
assets/make_corpus_en.py writes the English corpus the same way, kind for kind.

    python3 assets/make_corpus.py [N_SENTENCES] > assets/corpus_zh.txt

The output depends only on N and the fixed seed below.
"""
import random
import sys

SEED = 20240521

# ---- the kinds ------------------------------------------------------------------------------
PRONOUN = ["我", "你", "他", "她", "我们", "他们", "小明", "小红"]
FAMILY = ["妈妈", "爸爸", "哥哥", "姐姐", "弟弟", "妹妹", "爷爷", "奶奶"]
JOB = ["老师", "医生", "学生", "警察", "司机", "护士", "厨师", "农民", "律师", "记者", "工人",
       "校长"]
PERSON = PRONOUN + FAMILY + JOB + ["朋友", "同学", "邻居", "孩子"]

FEEL = ["爱", "喜欢", "热爱", "讨厌", "害怕", "想念", "关心", "担心", "珍惜", "怀念", "羡慕",
        "享受"]
MOOD = ["开心", "高兴", "难过", "生气", "伤心", "快乐"]

ANIMAL = ["猫", "狗", "兔子", "小鸟", "马", "牛", "羊", "熊猫", "老虎", "猴子", "鸭子", "大象",
          "狮子", "松鼠", "乌龟", "鹦鹉", "小鸡", "猪", "狐狸", "长颈鹿"]
PET = ["猫", "狗", "兔子", "鹦鹉"]  # the animals kept at home have frames of their own too
CITY = ["北京", "上海", "广州", "深圳", "杭州", "南京", "成都", "西安", "重庆", "武汉", "天津",
        "苏州", "长沙", "青岛", "厦门", "昆明", "大连", "郑州", "沈阳", "哈尔滨"]
FOOD = ["苹果", "香蕉", "橘子", "葡萄", "西瓜", "草莓", "面包", "米饭", "面条", "饺子", "鸡蛋",
        "蛋糕", "包子", "桃子", "梨", "饼干", "馒头", "豆腐", "土豆", "西红柿"]
DRINK = ["茶", "咖啡", "牛奶", "果汁"]
ACTION = ["跑步", "游泳", "唱歌", "跳舞", "画画", "学习", "读书", "写字", "做饭", "打球",
          "弹琴", "滑冰", "爬山", "钓鱼", "下棋", "练字"]

# ---- what goes with each kind ---------------------------------------------------------------
TIME = ["今天", "明天", "昨天", "周末", "早上", "晚上", "每天", "下午"]
DURATION = ["一个 小时", "两个 小时", "半天", "一整天", "三个 小时"]
FEEL_ADV = ["很", "非常", "一直", "真的", "深深 地"]
MOOD_WHY = ["考试 考 得 很 好", "收到 了 礼物", "下雨 了", "比赛 输 了", "见到 了 老朋友",
            "放假 了"]
ANIMAL_ADJ = ["可爱", "聪明", "胖", "调皮", "温顺"]
ANIMAL_ACT = ["睡觉", "打滚", "晒太阳", "跑来跑去", "叫"]
ANIMAL_PLACE = ["院子", "草地", "笼子", "窝", "动物园"]
ANIMAL_PART = ["尾巴", "耳朵", "毛", "爪子"]
CITY_ADJ = ["热闹", "繁华", "有名", "古老", "现代"]
CITY_THING = ["天气", "交通", "夜景", "地铁", "房价"]
VEHICLE = ["火车", "飞机", "高铁", "汽车"]
WORKPLACE = ["医院", "学校", "公司", "工厂", "饭店", "派出所"]
JOB_ADJ = ["很 认真", "很 耐心", "很 辛苦", "很 负责", "很 忙"]
FOOD_ADJ = ["甜", "新鲜", "好吃", "便宜", "香"]
MARKET = ["超市", "水果店", "市场", "商店"]
AMOUNT = ["一些", "几个", "两斤", "一袋", "一盒"]
ACTION_PLACE = ["操场", "公园", "体育馆", "教室", "家里"]


def c(xs):
    return random.choice(xs)


def two(xs):
    """Two different members of a kind."""
    a, b = random.sample(xs, 2)
    return a, b


def thing():
    """Something a feeling can be about: a word of any kind."""
    return c([c(ANIMAL), c(CITY), c(FOOD), c(ACTION), c(PERSON), c(DRINK)])


TEMPLATES = [
    # feelings: the feeling verbs share their frames, and take a thing of any kind
    lambda: f"{c(PERSON)} {c(FEEL)} {thing()} 。",
    lambda: f"{c(PERSON)} {c(FEEL_ADV)} {c(FEEL)} {thing()} 。",
    lambda: f"{c(PERSON)} 心里 {c(FEEL)} {thing()} 。",
    lambda: f"{c(PERSON)} 从小 就 {c(FEEL)} {thing()} 。",
    lambda: f"{c(PERSON)} 最 {c(FEEL)} 的 是 {thing()} 。",
    lambda: f"{c(PERSON)} 不 再 {c(FEEL)} {thing()} 了 。",
    lambda: f"{c(PERSON)} 说 自己 {c(FEEL)} {thing()} 。",
    # moods: how someone feels, and why
    lambda: f"{c(MOOD_WHY)} ， {c(PERSON)} 十分 {c(MOOD)} 。",
    lambda: f"{c(PERSON)} 今天 特别 {c(MOOD)} 。",
    lambda: f"{c(PERSON)} 感到 {c(MOOD)} 。",
    # animals: what they do, where, and what they look like
    lambda: f"{c(ANIMAL)} 在 {c(ANIMAL_PLACE)} 里 {c(ANIMAL_ACT)} 。",
    lambda: f"这 只 {c(ANIMAL)} 长 得 {c(ANIMAL_ADJ)} 。",
    lambda: f"那 只 小 {c(ANIMAL)} 在 {c(ANIMAL_PLACE)} {c(ANIMAL_ACT)} 。",
    lambda: f"{c(ANIMAL)} 的 {c(ANIMAL_PART)} {c(['长长 的', '短短 的', '软软 的', '白白 的'])} 。",
    lambda: f"动物园 里 有 一 只 {c(ANIMAL)} 。",
    lambda: "{} 和 {} 都 是 动物 。".format(*two(ANIMAL)),
    lambda: f"{c(ANIMAL)} 饿 了 ， 一直 在 叫 。",
    lambda: f"{c(PERSON)} 家 养 了 一 只 {c(PET)} 。",
    lambda: f"{c(PET)} 在 沙发 上 {c(ANIMAL_ACT)} 。",
    # places: trips, and what a city is like
    lambda: f"坐 {c(VEHICLE)} 去 {c(CITY)} 要 {c(DURATION)} 。",
    lambda: f"{c(CITY)} 是 一 座 {c(CITY_ADJ)} 的 城市 。",
    lambda: f"{c(CITY)} 的 {c(CITY_THING)} 非常 {c(CITY_ADJ)} 。",
    lambda: "从 {} 到 {} 坐 {} 要 {} 。".format(*two(CITY), c(VEHICLE), c(DURATION)),
    lambda: "{} 的 冬天 比 {} 冷 。".format(*two(CITY)),
    lambda: "{} 和 {} 都 是 大 城市 。".format(*two(CITY)),
    lambda: f"{c(PERSON)} 住 在 {c(CITY)} 。",
    lambda: f"{c(PERSON)} 下 个 月 出差 去 {c(CITY)} 。",
    # people: jobs, workplaces, and what a person is like
    lambda: f"{c(PERSON)} 是 一 位 {c(JOB)} 。",
    lambda: f"这 位 {c(JOB)} {c(JOB_ADJ)} 。",
    lambda: f"{c(JOB)} 在 {c(WORKPLACE)} 上班 。",
    lambda: f"{c(PERSON)} 长大 以后 想 当 {c(JOB)} 。",
    lambda: f"{c(PERSON)} 的 {c(FAMILY)} {c(JOB_ADJ)} 。",
    lambda: "{} 和 {} 是 好 朋友 。".format(*two(PERSON)),
    lambda: f"{c(PERSON)} 对 {c(PERSON)} 说 谢谢 。",
    lambda: f"{c(PERSON)} 和 {c(PERSON)} 一起 聊天 。",
    # food: bought, washed, eaten, and how it tastes
    lambda: f"{c(MARKET)} 卖 {c(AMOUNT)} {c(FOOD)} 。",
    lambda: f"这些 {c(FOOD)} 挺 {c(FOOD_ADJ)} 的 。",
    lambda: f"{c(MARKET)} 的 {c(FOOD)} 挺 {c(FOOD_ADJ)} 的 。",
    lambda: f"桌子 上 放 着 {c(AMOUNT)} {c(FOOD)} 。",
    lambda: f"把 {c(FOOD)} 洗 干净 再 吃 。",
    lambda: "{} 和 {} 都 挺 好吃 的 。".format(*two(FOOD)),
    lambda: f"早饭 吃 {c(FOOD)} 和 {c(FOOD)} 。",
    lambda: f"一 杯 {c(DRINK)} 放 在 桌子 上 。",
    # actions: when, where and how long
    lambda: f"{c(PERSON)} {c(TIME)} 去 {c(ACTION_PLACE)} {c(ACTION)} 。",
    lambda: f"{c(PERSON)} 每天 {c(ACTION)} {c(DURATION)} 。",
    lambda: f"{c(PERSON)} 正在 认真 地 {c(ACTION)} 。",
    lambda: f"{c(ACTION)} 了 {c(DURATION)} ， 有点 累 。",
    lambda: f"{c(PERSON)} 会 {c(ACTION)} 吗 ？",
    lambda: f"{c(PERSON)} 教 {c(PERSON)} {c(ACTION)} 。",
]


def write(templates, n, seed=SEED):
    """n different sentences from the templates, one a line, on standard output."""
    random.seed(seed)
    seen = set()
    out = []
    tries = 0
    while len(out) < n and tries < 50 * n:
        tries += 1
        s = c(templates)()
        if s in seen:  # variety: no sentence twice
            continue
        seen.add(s)
        out.append(s)
    sys.stdout.write("\n".join(out) + "\n")


def main():
    write(TEMPLATES, int(sys.argv[1]) if len(sys.argv) > 1 else 6000)


if __name__ == "__main__":
    main()
